/** How deep the tree of places may go (a site, a building, a floor, a wing, a room, ...). */
export const LOCATION_DEPTH_MAX = 8;

export const LOCATION_PAGE_SIZE_DEFAULT = 100;
export const LOCATION_PAGE_SIZE_MAX = 500;
