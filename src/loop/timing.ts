// How long a Stop hook may take: the registration's timeout (settings.ts) and the part of it the loop's
// validation may use, so the answer is written before the host gives up on the hook (which would let
// the turn end unvalidated).
export const STOP_HOOK_TIMEOUT_SECONDS = 600;
export const VALIDATION_BUDGET_MS = (STOP_HOOK_TIMEOUT_SECONDS - 40) * 1000;
