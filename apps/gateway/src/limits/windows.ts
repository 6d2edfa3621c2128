/** The fixed per-minute window a request falls in, and when it resets. */
export interface MinuteWindow {
  id: number;
  /** Unix seconds at which the window resets (X-RateLimit-Reset). */
  resetAt: number;
}

export function minuteWindow(nowMs: number): MinuteWindow {
  const id = Math.floor(nowMs / 60_000);
  return { id, resetAt: (id + 1) * 60 };
}

/** The calendar month in UTC a request falls in (`2026-11`), and when it ends. */
export interface UsageMonth {
  id: string;
  /** Unix seconds of the first instant of the next month. */
  endsAt: number;
}

export function usageMonth(nowMs: number): UsageMonth {
  const now = new Date(nowMs);
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  return {
    id: `${year}-${String(month + 1).padStart(2, '0')}`,
    endsAt: Date.UTC(year, month + 1, 1) / 1000,
  };
}

/** The month of an id (`2026-11`), as `usageMonth` gives it. */
export function usageMonthOf(id: string): UsageMonth {
  const [year, month] = id.split('-').map(Number) as [number, number];
  return { id, endsAt: Date.UTC(year, month, 1) / 1000 };
}

/** Whole seconds until `atSeconds`, never less than 1 (Retry-After). */
export function secondsUntil(atSeconds: number, nowMs: number): number {
  return Math.max(1, Math.ceil(atSeconds - nowMs / 1000));
}
