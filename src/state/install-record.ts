// `.isdlc/install.json`: what `isdlc init` put into the project, so that `uninstall` takes out exactly
// that, the journal knows which values of the host's settings are isdlc's, and a hook can tell an
// installed project from a bare `.isdlc/`. isdlc's own fields are declared here; each host adapter keeps
// its fields beside them, under the names earlier versions wrote.
import { join } from 'node:path';
import { recordOrUndefined } from '../util/json.js';
import { readTextIfPresent } from '../util/read-text.js';
import { ISDLC_DIR } from './locate.js';

export const INSTALL_RECORD = `${ISDLC_DIR}/install.json`;

export interface InstallRecord {
  version: 1;
  isdlc_version: string;
  installed_at: string;
  /** Files init created (relative to the project); uninstall removes these, unless the user changed them. */
  files: Record<string, { sha256: string }>;
  /** init made a journal of isdlc's writes (src/integrity/journal.ts): without one, a check cannot tell forged files. */
  journal?: boolean;
  /** The host adapters' own fields. */
  [hostField: string]: unknown;
}

/**
 * A path a record may name: relative, inside the project, in `/` form. The record is a file on disk that
 * uninstall and init delete by: an entry that climbs out (`.isdlc/bin/../../src/app.ts`) must not.
 */
function isOwnPath(rel: string): boolean {
  if (rel === '' || rel.startsWith('/') || rel.includes('\\') || rel.includes('\0')) return false;
  return rel.split('/').every((part) => part !== '' && part !== '.' && part !== '..');
}

/** The record in `text`, or undefined when it is no JSON object. Entries of `files` that are not a project path with a hash are left out. */
export function parseInstallRecord(text: string | undefined): InstallRecord | undefined {
  if (text === undefined) return undefined;
  let record: InstallRecord | undefined;
  try {
    record = recordOrUndefined(JSON.parse(text)) as InstallRecord | undefined;
  } catch {
    return undefined;
  }
  if (!record) return undefined;
  const files = recordOrUndefined(record.files) ?? {};
  record.files = Object.fromEntries(
    Object.entries(files).filter(([rel, entry]) => isOwnPath(rel) && typeof recordOrUndefined(entry)?.['sha256'] === 'string'),
  ) as InstallRecord['files'];
  return record;
}

/** The record as it is on disk now. */
export function readInstallRecord(root: string): InstallRecord | undefined {
  return parseInstallRecord(readTextIfPresent(join(root, INSTALL_RECORD)));
}
