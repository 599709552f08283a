// `.isdlc/uninstalled.json`: what isdlc made that a plain `isdlc uninstall` leaves in place (the
// constitution init wrote), with the digest of what isdlc wrote. The install record goes with uninstall;
// this keeps what it knew, so that a later `uninstall --purge` still removes the constitution while it is
// as isdlc wrote it, and a later `init` takes it up as isdlc's again.
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../state/atomic-write.js';
import { parseInstallRecord, type InstallRecord } from '../state/install-record.js';
import { ISDLC_DIR } from '../state/locate.js';
import { readTextIfPresent } from '../util/read-text.js';
import { serialise } from './json-file.js';

export const LEFT_BEHIND = `${ISDLC_DIR}/uninstalled.json`;

/** The files recorded as left behind (paths checked as the install record's are). */
export function leftBehindFiles(root: string): InstallRecord['files'] {
  return parseInstallRecord(readTextIfPresent(join(root, LEFT_BEHIND)))?.files ?? {};
}

/** Records `files` (none: no record). */
export function writeLeftBehind(root: string, files: InstallRecord['files']): void {
  const path = join(root, LEFT_BEHIND);
  if (Object.keys(files).length === 0) {
    rmSync(path, { force: true });
    return;
  }
  if (existsSync(join(root, ISDLC_DIR))) writeFileAtomic(path, serialise({ files }));
}

export function forgetLeftBehind(root: string): void {
  rmSync(join(root, LEFT_BEHIND), { force: true });
}
