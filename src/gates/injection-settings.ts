// Whether isdlc adds the gate requirements by itself: `gate_requirements_injection` in
// iteration-requirements.json, `{ "delegation_prompt": false }` or `{ "session_start": false }` to turn one off.
import type { ProjectConfig } from '../config/project-config.js';

export function injectionEnabled(config: ProjectConfig, where: 'delegation_prompt' | 'session_start'): boolean {
  const settings = (config.iterationRequirements as Record<string, unknown>)['gate_requirements_injection'];
  return !(settings && typeof settings === 'object' && (settings as Record<string, unknown>)[where] === false);
}
