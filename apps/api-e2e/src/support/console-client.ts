import { httpRequest, type ApiResponse } from '@custodian/testing';

/**
 * The console's HTTP API as a browser calls it: cookies kept between requests (the session
 * and the CSRF secret) and the CSRF token sent on every request that changes state.
 */
export class ConsoleClient {
  private readonly cookies = new Map<string, string>();
  csrfToken = '';

  /** `headers` go with every request (a browser's User-Agent). */
  constructor(
    private readonly baseUrl: string,
    private readonly headers: Record<string, string> = {},
  ) {}

  async session<T = Record<string, unknown>>(): Promise<ApiResponse<T>> {
    const response = await this.request<T>('GET', '/console/api/session');
    const token = (response.body as { csrf_token?: string }).csrf_token;
    if (token) this.csrfToken = token;
    return response;
  }

  get<T = unknown>(path: string): Promise<ApiResponse<T>> {
    return this.request<T>('GET', path);
  }

  post<T = unknown>(path: string, body?: unknown, headers: Record<string, string> = {}) {
    return this.request<T>('POST', path, body ?? {}, headers);
  }

  put<T = unknown>(path: string, body: unknown) {
    return this.request<T>('PUT', path, body);
  }

  patch<T = unknown>(path: string, body: unknown) {
    return this.request<T>('PATCH', path, body);
  }

  delete<T = unknown>(path: string) {
    return this.request<T>('DELETE', path);
  }

  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }

  async request<T>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<ApiResponse<T>> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await httpRequest<T>(`${this.baseUrl}${path}`, {
      method,
      body,
      headers: {
        ...this.headers,
        ...(cookie ? { cookie } : {}),
        ...(method === 'GET' || !this.csrfToken ? {} : { 'x-csrf-token': this.csrfToken }),
        ...headers,
      },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const [name, value] = [
        pair!.slice(0, pair!.indexOf('=')),
        pair!.slice(pair!.indexOf('=') + 1),
      ];
      const expired = attributes.some((a) => /^\s*expires=thu, 01 jan 1970/i.test(a));
      if (expired || value === '') this.cookies.delete(name.trim());
      else this.cookies.set(name.trim(), value);
    }
    return response;
  }
}
