// `isdlc doctor` for a project set up for Codex: the version (hooks from 0.124, the wall from 0.145), whether
// Codex trusts the project (else it ignores the whole `.codex/` folder), whether it will run isdlc's hooks
// (each trusted by the person in `/hooks` at its place, none switched off, the hooks feature on: Codex
// skips a hook that is not, without a word), whether they have run, and whether the permission profile is
// in place.
import { join } from 'node:path';
import type { Finding } from '../../install/host-setup.js';
import type { HostDoctorReport } from '../host.js';
import { readInstallRecord } from '../../state/install-record.js';
import { hooksSeenAt } from '../../state/hooks-seen.js';
import { recordOrUndefined } from '../../util/json.js';
import { CONFIG_FILE, HOOKS_FILE } from './files.js';
import { hooksSwitchedOff } from './hooks-feature.js';
import { codexFieldsOf } from './install-record.js';
import { codexWorkflowFindings } from './limits.js';
import { codexProfileHolds } from './profile.js';
import { codexPathOf, ourHooksTrust, personCodexConfig, readCodexConfig, type CodexConfigFile, type HookTrust, type OurHookTrust } from './trust-state.js';
import { CODEX_VERSIONS, compareVersions, installedCodexVersion } from './versions.js';

const REINIT = 'isdlc init --host codex';
/** The oldest Codex whose keys and hashes isdlc's were checked against (the e2e suite's pinned versions); older ones may differ. */
const TRUST_CHECKED_FROM = '0.145.0';
const TRUST_STEP = "open `codex` in the project, type /hooks and trust isdlc's hooks (those running `.isdlc/bin/isdlc.cjs hook --host codex`)";

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

/** Whether the person's Codex config trusts `root` (`[projects."<root>"] trust_level = "trusted"`); undefined when it does not parse. */
function projectTrustedIn(person: CodexConfigFile, root: string): boolean | undefined {
  if (person.error) return undefined;
  const projects = recordOrUndefined(person.config['projects']);
  return [root, codexPathOf(root)].some((path) => recordOrUndefined(projects?.[path])?.['trust_level'] === 'trusted');
}

const WHY: Record<Exclude<HookTrust, 'trusted'>, string> = {
  untrusted: 'never trusted',
  modified: 'changed since they were trusted',
  moved: "trusted, but a hook group put before isdlc's moved them, and Codex keys a hook by its place",
};

const events = (hooks: readonly OurHookTrust[]): string => [...new Set(hooks.map((hook) => hook.event))].join(', ');

/** Whether Codex will run each of isdlc's hooks, as the person's and the project's config say. */
function hookTrustFindings(root: string, person: CodexConfigFile): Finding[] {
  const findings: Finding[] = [];
  const project = readCodexConfig(join(root, CONFIG_FILE));
  for (const file of [person, project]) {
    const off = hooksSwitchedOff(file.config);
    if (off)
      findings.push({
        severity: 'fail',
        what: `${file.path} sets ${off}: Codex runs no hook at all, isdlc's included, whatever their trust`,
        fix:
          file === person
            ? `take that line out of ${file.path}`
            : `take that line out of ${CONFIG_FILE} (if isdlc puts it back, \`isdlc changes accept\` after taking it out)`,
      });
  }
  if (person.error) return findings; // said with the project's trust
  const ours = ourHooksTrust(root, person.config);
  if (ours === undefined) {
    findings.push({ severity: 'fail', what: `${HOOKS_FILE} is not a JSON object: Codex runs none of its hooks`, fix: `repair it, then ${REINIT}` });
    return findings;
  }
  if (ours.length === 0) {
    findings.push({ severity: 'fail', what: `${HOOKS_FILE} registers none of isdlc's hooks`, fix: REINIT });
    return findings;
  }
  const skipped = ours.filter((hook) => hook.trust !== 'trusted');
  if (skipped.length === 0) findings.push({ severity: 'ok', what: `Codex trusts isdlc's hooks (${events(ours)})` });
  else {
    const reasons = (Object.keys(WHY) as (keyof typeof WHY)[])
      .map((trust) => [trust, skipped.filter((hook) => hook.trust === trust)] as const)
      .filter(([, hooks]) => hooks.length > 0)
      .map(([trust, hooks]) => `${events(hooks)} (${WHY[trust]})`);
    findings.push({
      severity: 'fail',
      what: `Codex will skip isdlc's hooks at ${reasons.join('; ')}: it runs a project's hook only once the person has trusted it as it is now, and says nothing when it skips one`,
      fix: TRUST_STEP,
    });
  }
  const disabled = ours.filter((hook) => hook.disabled);
  if (disabled.length > 0)
    findings.push({
      severity: 'fail',
      what: `${person.path} switches off isdlc's hooks at ${events(disabled)} (\`enabled = false\` under [hooks.state."${disabled[0]!.key}"]${disabled.length > 1 ? ' and others' : ''}): Codex skips them even when trusted`,
      fix: `take those \`enabled = false\` lines out of ${person.path}, or switch the hooks on again in /hooks`,
    });
  return findings;
}

export function codexDoctor(root: string, env: NodeJS.ProcessEnv = process.env): HostDoctorReport {
  const record = codexFieldsOf(readInstallRecord(root));
  if (!record) return { reinit: REINIT, version: [], findings: [] };
  const version = installedCodexVersion(env);
  const person = personCodexConfig(env);
  const findings: Finding[] = [];
  const trusted = projectTrustedIn(person, root);
  findings.push(
    trusted
      ? { severity: 'ok', what: 'Codex trusts this project' }
      : {
          severity: 'fail',
          what: `Codex does not trust this project${trusted === undefined ? ` (${person.path} does not parse: ${person.error})` : ''}, so it ignores .codex/ here: no isdlc hooks, no profile, no MCP server`,
          fix: 'run `codex` in the project and trust it when asked',
        },
  );
  if (!version || compareVersions(version, TRUST_CHECKED_FROM) >= 0) findings.push(...hookTrustFindings(root, person));
  const seen = hooksSeenAt(join(root, '.isdlc'), 'codex');
  findings.push(
    seen
      ? { severity: 'ok', what: `isdlc's hooks ran under Codex (last at ${seen})` }
      : {
          severity: 'warn',
          what: "isdlc's hooks have not run under Codex yet: Codex skips hooks nobody trusted, without a word",
          fix: `start \`codex\` in the project and trust isdlc's hooks in /hooks (${HOOKS_FILE}); their next call shows here`,
        },
  );
  findings.push(
    codexProfileHolds(root)
      ? { severity: 'ok', what: `${CONFIG_FILE} makes isdlc's files read-only to the agent (profile "isdlc")` }
      : { severity: 'fail', what: `${CONFIG_FILE} does not hold isdlc's permission profile: the agent's shell can write isdlc's files`, fix: REINIT },
  );
  findings.push(...codexWorkflowFindings(root));
  return { reinit: REINIT, version: versionFindings(version), findings };
}
