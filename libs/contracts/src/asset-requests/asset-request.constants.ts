/** A request waits (`pending`) until a manager approves or rejects it; nothing else changes it. */
export const ASSET_REQUEST_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type AssetRequestStatus = (typeof ASSET_REQUEST_STATUSES)[number];

/** How an approved request is met: the asset checked out now, or booked for a range. */
export const ASSET_REQUEST_FULFILMENTS = ['check_out', 'booking'] as const;
export type AssetRequestFulfilment = (typeof ASSET_REQUEST_FULFILMENTS)[number];

export const ASSET_REQUEST_PAGE_SIZE_DEFAULT = 50;
export const ASSET_REQUEST_PAGE_SIZE_MAX = 200;
