import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/** One response to check: the request that got it and what came back. */
export interface ContractExchange {
  method: string;
  /** Absolute URL (or a path); the query string is ignored. */
  url: string;
  status: number;
  headers: Headers | Record<string, string | undefined>;
  /** The body exactly as received ('' when there was none). */
  text: string;
}

export type ContractOutcome =
  /** The document describes the operation: `violations` lists where the response differs. */
  | { kind: 'validated'; operation: string; violations: string[] }
  /** The document does not describe the request's path, or that path with this method. */
  | { kind: 'not-described'; reason: string };

/** The parts of an OpenAPI 3.1 document the check reads; the rest is carried along. */
export interface OpenApiLike {
  openapi?: string;
  servers?: Array<{ url: string }>;
  paths?: Record<string, Record<string, unknown>>;
  components?: Record<string, unknown>;
  [key: string]: unknown;
}

type Json = Record<string, unknown>;

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
/** The document's id inside Ajv; schema pointers are fragments of it. */
const DOCUMENT_ID = 'https://contract.custodian.invalid/openapi.json';
/** Per response, so that one bad list does not bury the rest. */
const MAX_ERRORS = 10;

interface PathTemplate {
  template: string;
  segments: RegExp[];
  /** Literal segments count: `/invitations/accept` wins over `/invitations/{id}`. */
  literals: number;
}

/** A JSON object of the document and the JSON pointer it was found at (after any $ref). */
interface Located {
  value: Json;
  pointer: string;
}

/**
 * Checks HTTP responses against an OpenAPI 3.1 document: the status must be a documented
 * response of the path and method (exact, `2XX`-style range, or `default`); the headers the
 * document describes must match their schemas (and be present when `required`); the
 * content type must be one the response describes; the body must match its schema (JSON
 * Schema 2020-12, `$ref`s into the document resolved). Schemas compile on first use.
 */
export class ContractValidator {
  private readonly ajv: Ajv2020;
  private readonly templates: PathTemplate[];
  private readonly basePaths: string[];
  private readonly compiled = new Map<string, ValidateFunction | Error>();

  constructor(private readonly document: OpenApiLike) {
    this.ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
    addFormats(this.ajv);
    this.ajv.addSchema(document, DOCUMENT_ID);
    this.templates = Object.keys(document.paths ?? {}).map(compileTemplate);
    this.basePaths = basePathsOf(document);
  }

  check(exchange: ContractExchange): ContractOutcome {
    const method = exchange.method.toLowerCase();
    const path = new URL(exchange.url, 'http://localhost').pathname;
    const request = `${method.toUpperCase()} ${path}`;
    const template = this.matchPath(path);
    if (!template) return { kind: 'not-described', reason: `${request}: path not in the document` };
    const pathItem = this.resolve(`/paths/${escapePointer(template)}`);
    const operationPointer = `${pathItem.pointer}/${method}`;
    if (!METHODS.has(method) || !isObject(pathItem.value[method])) {
      return { kind: 'not-described', reason: `${request}: ${template} has no ${method}` };
    }
    const operation = `${method.toUpperCase()} ${template}`;
    const where = `${request} → ${exchange.status} (${operation})`;
    const violations = this.checkResponse(exchange, operationPointer, method).map(
      (problem) => `${where}: ${problem}`,
    );
    return { kind: 'validated', operation, violations };
  }

  private checkResponse(exchange: ContractExchange, operationPointer: string, method: string) {
    const responses = this.resolve(`${operationPointer}/responses`);
    const status = String(exchange.status);
    const range = status.charAt(0);
    const key = [status, `${range}XX`, `${range}xx`, 'default'].find((candidate) =>
      isObject(responses.value[candidate]),
    );
    if (key === undefined) {
      const documented = Object.keys(responses.value).join(', ');
      return [`status ${status} is not a documented response (documented: ${documented})`];
    }
    const response = this.resolve(`${responses.pointer}/${escapePointer(key)}`);
    return [
      ...this.checkHeaders(exchange, response),
      // A HEAD response has the headers of a GET but never its body.
      ...(method === 'head' ? [] : this.checkBody(exchange, response)),
    ];
  }

  private checkHeaders(exchange: ContractExchange, response: Located): string[] {
    const problems: string[] = [];
    const headers = isObject(response.value.headers) ? response.value.headers : {};
    for (const name of Object.keys(headers)) {
      // OpenAPI: a Content-Type header definition is ignored (the content map says it).
      if (name.toLowerCase() === 'content-type') continue;
      const header = this.resolve(`${response.pointer}/headers/${escapePointer(name)}`);
      const value = headerValue(exchange.headers, name);
      if (value === undefined) {
        if (header.value.required === true) problems.push(`required header ${name} is missing`);
        continue;
      }
      let schemaPointer: string | undefined;
      if (isObject(header.value.schema)) {
        schemaPointer = `${header.pointer}/schema`;
      } else if (isObject(header.value.content)) {
        const [mediaType] = Object.keys(header.value.content);
        if (mediaType !== undefined) {
          schemaPointer = `${header.pointer}/content/${escapePointer(mediaType)}/schema`;
        }
      }
      if (schemaPointer === undefined) continue;
      const validate = this.validator(schemaPointer);
      if (validate instanceof Error) {
        problems.push(`header ${name}: ${validate.message}`);
        continue;
      }
      // Headers are strings on the wire; a primitive schema (`simple` style) may type them.
      const candidates: unknown[] = [value, ...coercions(value)];
      if (candidates.some((candidate) => validate(candidate))) continue;
      validate(value);
      problems.push(
        ...formatErrors(validate.errors, `header ${name} (${JSON.stringify(value)})`, true),
      );
    }
    return problems;
  }

  private checkBody(exchange: ContractExchange, response: Located): string[] {
    const contentType = headerValue(exchange.headers, 'content-type');
    const mediaType = contentType?.split(';')[0]?.trim().toLowerCase();
    const content = isObject(response.value.content) ? response.value.content : {};
    const documented = Object.keys(content);
    if (documented.length === 0) {
      return exchange.text === ''
        ? []
        : [
            `has a body (${contentType ?? 'no content-type'}, ${exchange.text.length} chars) ` +
              'but the document describes no content for this response',
          ];
    }
    if (mediaType === undefined) {
      return [
        `has no content-type (body of ${exchange.text.length} chars); the document describes ` +
          documented.join(', '),
      ];
    }
    const key = matchMediaType(mediaType, documented);
    if (key === undefined) {
      return [
        `content-type ${contentType} is not documented (documented: ${documented.join(', ')})`,
      ];
    }
    const media = this.resolve(`${response.pointer}/content/${escapePointer(key)}`);
    if (!isObject(media.value.schema) && typeof media.value.schema !== 'boolean') return [];
    let body: unknown = exchange.text;
    if (mediaType === 'application/json' || mediaType.endsWith('+json')) {
      try {
        body = JSON.parse(exchange.text);
      } catch {
        return [`body is not valid JSON although the content-type is ${contentType}`];
      }
    }
    const validate = this.validator(`${media.pointer}/schema`);
    if (validate instanceof Error) return [`body: ${validate.message}`];
    if (validate(body)) return [];
    return [...formatErrors(validate.errors, 'body', false), `body was: ${excerpt(exchange.text)}`];
  }

  /** The template a request path falls under, preferring the most literal one. */
  private matchPath(path: string): string | undefined {
    let best: PathTemplate | undefined;
    for (const base of this.basePaths) {
      if (base !== '' && path !== base && !path.startsWith(`${base}/`)) continue;
      // Raw segments for parameters (an id holding %2F is still one segment), decoded ones for
      // literal parts.
      const raw = path.slice(base.length).split('/');
      const decoded = raw.map(decodeSegment);
      for (const template of this.templates) {
        if (template.segments.length !== raw.length) continue;
        const fits = (pattern: RegExp, i: number) =>
          pattern.test(raw[i] ?? '') || pattern.test(decoded[i] ?? '');
        if (!template.segments.every(fits)) continue;
        if (!best || template.literals > best.literals) best = template;
      }
    }
    return best?.template;
  }

  /** The object at a pointer of the document, following a `$ref` it holds (document-local). */
  private resolve(pointer: string, seen = new Set<string>()): Located {
    const value = readPointer(this.document, pointer);
    if (!isObject(value)) return { value: {}, pointer };
    const ref = value.$ref;
    if (typeof ref === 'string' && ref.startsWith('#') && !seen.has(pointer)) {
      seen.add(pointer);
      return this.resolve(decodeURIComponent(ref.slice(1)), seen);
    }
    return { value, pointer };
  }

  /** The compiled schema at a pointer of the document, or why it does not compile. */
  private validator(pointer: string): ValidateFunction | Error {
    let validate = this.compiled.get(pointer);
    if (!validate) {
      const fragment = pointer.split('/').map(encodeURIComponent).join('/');
      try {
        validate = this.ajv.compile({ $ref: `${DOCUMENT_ID}#${fragment}` });
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        validate = new Error(`the schema at #${pointer} does not compile: ${message}`);
      }
      this.compiled.set(pointer, validate);
    }
    return validate;
  }
}

function compileTemplate(template: string): PathTemplate {
  let literals = 0;
  const segments = template.split('/').map((segment) => {
    if (!segment.includes('{')) literals++;
    const parts = segment.split(/(\{[^}]+\})/).filter((part) => part !== '');
    const source = parts
      .map((part) =>
        /^\{[^}]+\}$/.test(part) ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
      )
      .join('');
    return new RegExp(`^${source}$`);
  });
  return { template, segments, literals };
}

/** The path prefixes of the document's servers ('' for the root or an absolute-host URL). */
function basePathsOf(document: OpenApiLike): string[] {
  const paths = (document.servers ?? []).map((server) => {
    if (server.url.includes('{')) return '';
    return new URL(server.url, 'http://localhost').pathname.replace(/\/+$/, '');
  });
  return paths.length > 0 ? [...new Set(paths)] : [''];
}

function matchMediaType(mediaType: string, documented: string[]): string | undefined {
  const normalized = documented.map((key) => [key, (key.split(';')[0] ?? '').trim().toLowerCase()]);
  const [type] = mediaType.split('/');
  return (
    normalized.find(([, key]) => key === mediaType)?.[0] ??
    normalized.find(([, key]) => key === `${type}/*`)?.[0] ??
    normalized.find(([, key]) => key === '*/*')?.[0]
  );
}

function headerValue(headers: ContractExchange['headers'], name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const wanted = name.toLowerCase();
  const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === wanted);
  return key === undefined ? undefined : headers[key];
}

/** What a header string also stands for when its schema types it as a number or boolean. */
function coercions(value: string): unknown[] {
  const result: unknown[] = [];
  if (value.trim() !== '' && Number.isFinite(Number(value))) result.push(Number(value));
  if (value === 'true' || value === 'false') result.push(value === 'true');
  return result;
}

function formatErrors(
  errors: ErrorObject[] | null | undefined,
  subject: string,
  isHeader: boolean,
): string[] {
  const list = errors ?? [];
  const lines = list.slice(0, MAX_ERRORS).map((error) => {
    const at = isHeader ? subject : `${subject}${error.instancePath || ' (root)'}`;
    return `${at} ${error.message ?? 'is invalid'}${detail(error)} [schema ${error.schemaPath.replace(DOCUMENT_ID, '')}]`;
  });
  if (list.length > MAX_ERRORS) lines.push(`${subject}: ${list.length - MAX_ERRORS} more errors`);
  return lines;
}

function detail(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'additionalProperties' || error.keyword === 'unevaluatedProperties') {
    const name = params.additionalProperty ?? params.unevaluatedProperty;
    return `: ${JSON.stringify(name)}`;
  }
  if (error.keyword === 'enum') return `: ${JSON.stringify(params.allowedValues)}`;
  if (error.keyword === 'const') return `: ${JSON.stringify(params.allowedValue)}`;
  return '';
}

function excerpt(text: string): string {
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function escapePointer(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

function readPointer(root: unknown, pointer: string): unknown {
  if (pointer === '') return root;
  let value = root;
  for (const token of pointer.slice(1).split('/')) {
    if (!isObject(value) && !Array.isArray(value)) return undefined;
    const key = token.replace(/~1/g, '/').replace(/~0/g, '~');
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
