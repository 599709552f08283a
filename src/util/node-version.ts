// The Node.js isdlc runs on: 22.13 or later, where `node:sqlite` (the loop store) needs no flag.
// Node 20 is past its end of life.
export const MIN_NODE = '22.13.0';

/** Whether `version` (`22.13.0`, `v24.1.0`) is at least MIN_NODE. */
export function nodeIsSupported(version: string): boolean {
  const [major = 0, minor = 0] = version.replace(/^v/, '').split('.').map(Number);
  const [minMajor = 0, minMinor = 0] = MIN_NODE.split('.').map(Number);
  return major > minMajor || (major === minMajor && minor >= minMinor);
}
