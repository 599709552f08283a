// dist/loop.cjs: the loop's API for the hook, the CLI and the MCP server; run directly with `--validate`
// it is the Stop hook's validation child (validate-in-child.ts).
import { readFileSync } from 'node:fs';
import { validate } from '../loop/validate.js';
import { VALIDATE_FLAG, type ChildRequest } from '../loop/validate-in-child.js';

export * from '../loop/api.js';

async function validateChild(): Promise<void> {
  const request = JSON.parse(readFileSync(0, 'utf8')) as ChildRequest;
  const report = await validate(request.rules, request.context, { deadline: request.deadline });
  process.stdout.write(JSON.stringify(report));
}

if (require.main === module && process.argv[2] === VALIDATE_FLAG) {
  validateChild().then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
      process.exit(1);
    },
  );
}
