import { PLAN_NAMES } from './plan.constants';

/** Descriptions the views of several domains share (not part of the package's surface). */
export const PLAN = { description: 'The plan of the workspace: ' + PLAN_NAMES.join(', ') + '.' };
export const KEY_SCOPE = {
  description: 'Scope of an API key: `read`, or `write` (which includes read).',
};
export const WORKSPACE_ID = 'Id of the workspace: `wsp_` + a ULID.';
