import openapiTS, { COMMENT_HEADER, astToString, type OpenAPI3 } from 'openapi-typescript';

/**
 * TypeScript types for the document, as `openapi-typescript <document>` writes them; the
 * e2e suite checks that /api/v1/openapi.json of a running gateway yields the same text.
 */
export async function clientTypes(document: object): Promise<string> {
  const ast = await openapiTS(document as OpenAPI3);
  return COMMENT_HEADER + astToString(ast);
}
