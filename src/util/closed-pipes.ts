// A reader that goes away before the output ends (`isdlc doctor | head -1`, an MCP client that quits)
// closes the pipe under the rest of it. That is no fault of the command: its work still completes and its
// exit status stands; what it would have printed has nowhere to go. Left alone, Node raises the pipe's
// EPIPE as an unhandled 'error' event and the command dies mid-way with a stack trace.

/** Whether an error says the reader of a pipe is gone. */
export function isClosedPipe(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'EPIPE';
}

const quieted = new WeakSet<NodeJS.WriteStream>();

/** From the first EPIPE on, what is written to these streams is dropped; any other error is thrown as before. */
export function quietWhenPipesClose(streams: NodeJS.WriteStream[] = [process.stdout, process.stderr]): void {
  for (const stream of streams) {
    if (quieted.has(stream)) continue; // once per stream, however often a process runs a command
    quieted.add(stream);
    stream.on('error', (error: unknown) => {
      if (!isClosedPipe(error)) throw error;
      stream.write = () => true;
    });
  }
}
