import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ERROR_KINDS } from '@first-round/shared/errors';
import { joinRefusalData } from '@first-round/shared/schemas';
import { appRouter } from '../trpc/root.js';
import { PATH_PARAMS, restRoutes, type RestRoute } from './routes.js';

interface ProcedureDef {
  type: 'query' | 'mutation' | 'subscription';
  inputs: unknown[];
  output?: unknown;
  meta?: { output?: unknown };
}

/**
 * Every error answer (errors.ts): the message twice, the kind a client branches on, and the data some
 * errors carry beside them (a refused join's tries left; absent elsewhere).
 */
const errorSchema = {
  type: 'object',
  properties: {
    detail: { type: 'string' },
    message: { type: 'string' },
    code: { type: 'string', enum: [...ERROR_KINDS] },
    ...(z.toJSONSchema(joinRefusalData, { io: 'output', target: 'openapi-3.0' }).properties as Record<string, unknown>),
  },
  required: ['detail', 'message', 'code'],
};

function jsonSchema(schema: unknown, io: 'input' | 'output'): Record<string, unknown> | undefined {
  if (!(schema instanceof z.ZodType)) return undefined;
  try {
    return z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'openapi-3.0' }) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** The properties of an input's JSON schema (an optional input is `anyOf: [object, …]`). */
function propertiesOf(schema: Record<string, unknown> | undefined): Record<string, unknown> {
  if (!schema) return {};
  if (schema.properties) return schema.properties as Record<string, unknown>;
  const variants = (schema.anyOf ?? schema.oneOf ?? []) as Record<string, unknown>[];
  return (variants.find((v) => v.properties)?.properties as Record<string, unknown> | undefined) ?? {};
}

const errorResponse = (description: string) => ({ description, content: { 'application/json': { schema: errorSchema } } });
const retryAfter = { 'Retry-After': { description: 'Seconds until a try is allowed again', schema: { type: 'integer' } } };

/**
 * The answers a row documents: success, the refusals its auth allows, and its own extras. A row that takes
 * a group id also answers a private group the caller is not in as none (404), and past the address's budget
 * of such answers 429 (modules/groups/probe-budget.ts).
 */
function responsesOf(route: RestRoute, output: unknown, takesGroupId: boolean) {
  const own = Object.fromEntries(Object.entries(route.responses ?? {}).map(([status, description]) => [status, errorResponse(description)]));
  const probeBudget = "too many 'Group not found' answers to this address (GROUP_PROBE_LIMIT per GROUP_PROBE_WINDOW_SECONDS)";
  return {
    200: { description: 'Success', content: { 'application/json': { schema: jsonSchema(output, 'output') ?? {} } } },
    ...(route.auth === 'public' ? {} : { 401: errorResponse('Authentication required') }),
    403: errorResponse('Forbidden'),
    404: errorResponse(takesGroupId ? 'Not found (a private group the caller is not in answers exactly as no such group)' : 'Not found'),
    409: errorResponse('Conflict (duplicate, or the draft has started)'),
    422: errorResponse('Invalid input'),
    ...own,
    ...(takesGroupId
      ? { 429: { ...errorResponse(route.responses?.[429] ? `${route.responses[429]}; or ${probeBudget}` : `Too many requests: ${probeBudget}`), headers: retryAfter } }
      : {}),
  };
}

/** The OpenAPI document of the REST adapter, generated from the REST table and the procedures' zod schemas. */
export function buildOpenApiDocument() {
  const procedures = (appRouter._def as unknown as { procedures: Record<string, { _def: ProcedureDef }> }).procedures;
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of restRoutes) {
    const def = procedures[route.procedure]?._def;
    const inputSchema = def?.inputs.length ? jsonSchema(def.inputs[def.inputs.length - 1], 'input') : undefined;
    const inputProperties = propertiesOf(inputSchema);
    const pathParams = [...route.path.matchAll(/:(\w+)/g)].map((m) => ({
      name: m[1],
      in: 'path',
      required: true,
      schema: jsonSchema(PATH_PARAMS[m[1]!], 'input') ?? { type: 'string' },
    }));
    // A query parameter is documented as the procedure's input field of the same name (its limits, its default).
    const queryParams = Object.keys(route.query?.shape ?? {}).map((name) => ({
      name,
      in: 'query',
      required: false,
      schema: inputProperties[name] ?? { type: 'integer' },
    }));
    const openApiPath = `/api${route.path.replace(/:(\w+)/g, '{$1}')}`;
    const operation: Record<string, unknown> = {
      operationId: `${route.method.toLowerCase()}_${route.path.replace(/[^a-zA-Z0-9]+/g, '_').replace(/^_|_$/g, '')}`,
      summary: route.summary,
      tags: [route.procedure.split('.')[0]],
      description: `Calls the tRPC procedure \`${route.procedure}\`. Also served without the /api prefix.${route.auth === 'admin' ? ' Operators only.' : ''}${route.spec ? '' : ' (Not in the original spec.)'}`,
      parameters: [...pathParams, ...queryParams],
      responses: responsesOf(route, def?.output ?? def?.meta?.output, 'group_id' in inputProperties),
      security: route.auth === 'public' ? [] : [{ bearer: [] }],
    };
    if (route.method !== 'GET' && inputSchema && route.input) {
      operation.requestBody = { required: true, content: { 'application/json': { schema: inputSchema } } };
    }
    (paths[openApiPath] ??= {})[route.method.toLowerCase()] = operation;
  }
  return {
    openapi: '3.0.3',
    info: {
      title: 'First Round REST API',
      version: '1.0.0',
      description:
        'Every path also answers without the /api prefix, and with or without a trailing slash. Errors are {detail, message, code}: ' +
        '`code` is the kind of error (one of the `code` enum), for clients to branch on; `detail` and `message` are the same text, for people.',
    },
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    paths,
  };
}

export async function registerOpenApi(app: FastifyInstance) {
  const document = buildOpenApiDocument();
  app.get('/api/openapi.json', async () => document);
}
