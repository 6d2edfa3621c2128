/** How an asset write names its category, in both fields' descriptions. */
export const CATEGORY_BY_NAME =
  'The category by name: the one of that name (any case), or a new one. Or `category_id`.';
export const CATEGORY_BY_ID =
  'The category by id (`GET /categories`), instead of `category`; null clears it.';
