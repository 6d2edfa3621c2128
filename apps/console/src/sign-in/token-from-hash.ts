/**
 * The token of an e-mailed link (`#token=…`). It travels in the fragment, which browsers never
 * send to a server, so it is in no access log; the page removes it from the address once read.
 */
export function tokenFromHash(hash: string): string | null {
  const token = new URLSearchParams(hash.replace(/^#/, '')).get('token')?.trim();
  return token ? token : null;
}
