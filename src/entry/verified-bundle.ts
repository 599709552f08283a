// Which file a hook call runs. A hook bundle in `.isdlc/bin/` that is no longer what isdlc installed (an
// agent wrote `process.exit(0)` into it) would silence every check that bundle makes, the tamper check
// included; so the executable runs isdlc's own copy from the journal instead, and that copy's check puts
// the installed file back and reports it. Only the executable itself has no such fallback.
import { lstatSync, readFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { copyPath, handOverRead, readJournal, sameStamp, stampOf } from '../integrity/journal.js';

export function verifiedBundle(file: string): string {
  const bin = dirname(file);
  if (basename(bin) !== 'bin' || basename(dirname(bin)) !== '.isdlc') return file;
  const root = dirname(dirname(bin));
  const rel = `.isdlc/bin/${basename(file)}`;
  try {
    const read = readJournal(root);
    handOverRead(root, read);
    const entry = read.kind === 'ok' ? read.index.files[rel] : undefined;
    if (!entry?.copy || sameStamp(stampOf(lstatSync(file, { throwIfNoEntry: false })), entry.stamp)) return file;
    const copy = copyPath(root, rel);
    const installed = lstatSync(file, { throwIfNoEntry: false })?.isFile() ? readFileSync(file) : undefined;
    return installed?.equals(readFileSync(copy)) ? file : copy;
  } catch {
    return file;
  }
}
