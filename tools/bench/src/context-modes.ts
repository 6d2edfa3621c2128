/**
 * `npm run bench -- context`'s modes: as before issue 15 (no request context, no metrics), the
 * request context and the RPC histogram with tracing off (one AsyncLocalStorage), and tracing
 * on for a message whose trace was not sampled (what nine requests in ten are under the
 * shipped sampler) or was.
 */
export const CONTEXT_MODES = ['none', 'request-id', 'traced-unsampled', 'traced-sampled'] as const;
export type ContextMode = (typeof CONTEXT_MODES)[number];

export interface ContextResult {
  mode: ContextMode;
  /** Process CPU µs per unit of work (a pool checkout and a query), over the timed units. */
  microsPerUnit: number;
  /** The same, with the sampled spans exported to the sink before the clock stopped. */
  microsPerUnitWithExport: number;
}
