import { closeSync, fdatasyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

let tempCounter = 0;

/**
 * write(2) may write less than asked (a file-size limit, a full disk, a signal): keep going from where it
 * stopped, so the failure surfaces as an error instead of a file cut short that then replaces the good one.
 */
function writeAll(fd: number, bytes: Buffer): void {
  let offset = 0;
  while (offset < bytes.length) {
    const written = writeSync(fd, bytes, offset, bytes.length - offset);
    if (written <= 0) throw new Error(`could not write: ${bytes.length - offset} bytes left`);
    offset += written;
  }
}

/**
 * Writes `content` to `file` so that a reader, or a crash at any moment, sees either the old file or the
 * new one whole: the bytes go to a temporary file in the same folder, reach the disk, then replace the
 * target with one rename.
 */
export function writeFileAtomic(file: string, content: string | Buffer, options: { durable?: boolean } = {}): void {
  tempCounter += 1;
  const temp = join(dirname(file), `.${basename(file)}.${process.pid}.${tempCounter}.tmp`);
  // The name holds our pid, so no live process shares it; 'w' also reclaims a leftover from a dead one.
  const fd = openSync(temp, 'w', 0o644);
  try {
    writeAll(fd, typeof content === 'string' ? Buffer.from(content, 'utf8') : content);
    // The data reaches the disk before the rename makes it the file. Records that can be rebuilt (the
    // journal's copies and index, which a crash at worst makes the check report) skip the wait.
    if (options.durable !== false) fdatasyncSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(temp, { force: true });
    throw error;
  }
  closeSync(fd);
  try {
    renameSync(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}
