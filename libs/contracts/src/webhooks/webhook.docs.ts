/** A description the endpoint bodies and views share (not part of the package's surface). */
export const EVENTS_DESCRIPTION =
  'Event keys the endpoint receives, or `["*"]` alone for every event.';
