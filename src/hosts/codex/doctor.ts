// `isdlc doctor` for a project set up for Codex: the version (hooks from 0.124, the wall from 0.145), whether
// Codex trusts the project (else it ignores the whole `.codex/` folder), whether isdlc's hooks have run (Codex
// skips an untrusted hook without a word, so only a hook that ran proves it is trusted), and whether the
// permission profile is in place.
import { join } from 'node:path';
import { parse } from 'smol-toml';
import type { Finding } from '../../install/host-setup.js';
import type { HostDoctorReport } from '../host.js';
import { readInstallRecord } from '../../state/install-record.js';
import { hooksSeenAt } from '../../state/hooks-seen.js';
import { readTextIfPresent } from '../../util/read-text.js';
import { codexHome, CONFIG_FILE, HOOKS_FILE } from './files.js';
import { codexFieldsOf } from './install-record.js';
import { codexWorkflowFindings } from './limits.js';
import { codexProfileHolds } from './profile.js';
import { CODEX_VERSIONS, compareVersions, installedCodexVersion } from './versions.js';

const REINIT = 'isdlc init --host codex';

function versionFindings(version: string | undefined): Finding[] {
  if (!version)
    return [
      {
        severity: 'warn',
        what: 'no `codex` found on PATH, so its version is unknown',
        fix: 'install Codex (npm i -g @openai/codex), then run isdlc doctor again',
      },
    ];
  if (compareVersions(version, CODEX_VERSIONS.hooksFrom) < 0)
    return [{ severity: 'fail', what: `Codex ${version} runs no project hooks (from ${CODEX_VERSIONS.hooksFrom})`, fix: 'npm i -g @openai/codex@latest' }];
  if (compareVersions(version, CODEX_VERSIONS.wallFrom) < 0)
    return [
      {
        severity: 'warn',
        what: `Codex ${version} has no permission profiles (from ${CODEX_VERSIONS.wallFrom}): the agent's shell can write isdlc's files, which isdlc only notices afterwards`,
        fix: `npm i -g @openai/codex@latest, then ${REINIT}`,
      },
    ];
  return [{ severity: 'ok', what: `Codex ${version}: hooks and permission profiles` }];
}

/** Whether the person's Codex config trusts `root` (`[projects."<root>"] trust_level = "trusted"`). */
export function projectTrusted(root: string, env: NodeJS.ProcessEnv = process.env): boolean | undefined {
  const text = readTextIfPresent(join(codexHome(env), 'config.toml'));
  if (text === undefined) return false;
  try {
    const config = parse(text) as { projects?: Record<string, { trust_level?: unknown }> };
    return config.projects?.[root]?.trust_level === 'trusted';
  } catch {
    return undefined;
  }
}

export function codexDoctor(root: string, env: NodeJS.ProcessEnv = process.env): HostDoctorReport {
  const record = codexFieldsOf(readInstallRecord(root));
  if (!record) return { reinit: REINIT, version: [], findings: [] };
  const findings: Finding[] = [];
  const trusted = projectTrusted(root, env);
  findings.push(
    trusted
      ? { severity: 'ok', what: 'Codex trusts this project' }
      : {
          severity: 'fail',
          what: `Codex does not trust this project${trusted === undefined ? ` (${join(codexHome(env), 'config.toml')} does not parse)` : ''}, so it ignores .codex/ here: no isdlc hooks, no profile, no MCP server`,
          fix: 'run `codex` in the project and trust it when asked',
        },
  );
  const seen = hooksSeenAt(root, 'codex');
  findings.push(
    seen
      ? { severity: 'ok', what: `isdlc's hooks ran under Codex (last session start ${seen})` }
      : {
          severity: 'warn',
          what: "isdlc's hooks have not run under Codex yet: Codex skips hooks nobody trusted, without a word",
          fix: `start \`codex\` in the project and trust isdlc's hooks in /hooks (${HOOKS_FILE}); the next session start shows here`,
        },
  );
  findings.push(
    codexProfileHolds(root)
      ? { severity: 'ok', what: `${CONFIG_FILE} makes isdlc's files read-only to the agent (profile "isdlc")` }
      : { severity: 'fail', what: `${CONFIG_FILE} does not hold isdlc's permission profile: the agent's shell can write isdlc's files`, fix: REINIT },
  );
  findings.push(...codexWorkflowFindings(root));
  return { reinit: REINIT, version: versionFindings(installedCodexVersion(env)), findings };
}
