/** How an asset or a person write names its location, in both fields' descriptions. */
export const LOCATION_BY_NAME =
  'The location by name: the one place of that name (any case) anywhere in the tree, or a new ' +
  'top-level one. A name several places share is refused: send `location_id`.';
export const LOCATION_BY_ID =
  'The location by id (`GET /locations`), instead of `location`; null clears it.';
