import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { appRouter } from '../trpc/root.js';
import { restRoutes } from './routes.js';

interface ProcedureDef {
  type: 'query' | 'mutation' | 'subscription';
  inputs: unknown[];
  output?: unknown;
  meta?: { output?: unknown };
}

const errorSchema = {
  type: 'object',
  properties: { detail: { type: 'string' }, message: { type: 'string' } },
  required: ['detail', 'message'],
};

function jsonSchema(schema: unknown, io: 'input' | 'output') {
  if (!(schema instanceof z.ZodType)) return undefined;
  try {
    return z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'openapi-3.0' });
  } catch {
    return undefined;
  }
}

/** Path values as the adapter accepts them (anything else is a 422 before the procedure runs). */
const PATH_PARAM_SCHEMAS: Record<string, object> = {
  id: { type: 'integer', minimum: 1, maximum: 2_147_483_647 },
  participantId: { type: 'string', maxLength: 200, pattern: '^(user|temp)_[A-Za-z0-9_-]+$' },
  token: { type: 'string', minLength: 1, maxLength: 200, pattern: '^[A-Za-z0-9_-]+$' },
};

/** The OpenAPI document of the REST adapter, generated from the same zod schemas the procedures use. */
export function buildOpenApiDocument() {
  const procedures = (appRouter._def as unknown as { procedures: Record<string, { _def: ProcedureDef }> }).procedures;
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of restRoutes) {
    const def = procedures[route.procedure]?._def;
    const openApiPath = `/api${route.path.replace(/:(\w+)/g, '{$1}')}`;
    const pathParams = [...route.path.matchAll(/:(\w+)/g)].map((m) => ({
      name: m[1],
      in: 'path',
      required: true,
      schema: PATH_PARAM_SCHEMAS[m[1]!] ?? { type: 'string' },
    }));
    const inputSchema = def?.inputs.length ? jsonSchema(def.inputs[def.inputs.length - 1], 'input') : undefined;
    const operation: Record<string, unknown> = {
      operationId: `${route.method.toLowerCase()}_${route.path.replace(/[^a-zA-Z0-9]+/g, '_').replace(/^_|_$/g, '')}`,
      summary: route.summary,
      tags: [route.procedure.split('.')[0]],
      description: `Calls the tRPC procedure \`${route.procedure}\`. Also served without the /api prefix.${route.spec ? '' : ' (Not in the original spec.)'}`,
      parameters: [
        ...pathParams,
        ...(route.path === '/picks/my-picks' ? [{ name: 'group_id', in: 'query', required: false, schema: { type: 'integer', minimum: 1 } }] : []),
        ...(route.procedure === 'leaderboard.group'
          ? [
              { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 5000, default: 500 } },
              { name: 'offset', in: 'query', required: false, schema: { type: 'integer', minimum: 0, default: 0 } },
            ]
          : []),
      ],
      responses: {
        200: { description: 'Success', content: { 'application/json': { schema: jsonSchema(def?.output ?? def?.meta?.output, 'output') ?? {} } } },
        401: { description: 'Authentication required', content: { 'application/json': { schema: errorSchema } } },
        403: { description: 'Forbidden', content: { 'application/json': { schema: errorSchema } } },
        404: { description: 'Not found', content: { 'application/json': { schema: errorSchema } } },
        409: { description: 'Conflict (duplicate, or the draft has started)', content: { 'application/json': { schema: errorSchema } } },
        422: { description: 'Invalid input', content: { 'application/json': { schema: errorSchema } } },
        ...(route.procedure === 'groups.join'
          ? { 429: { description: 'Too many failed joins (wrong passwords for this group, or failed joins overall); the message says when to try again', content: { 'application/json': { schema: errorSchema } } } }
          : {}),
      },
      security: route.procedure === 'joinLinks.resolve' || route.procedure.startsWith('players.') || route.procedure === 'draft.status' ? [] : [{ bearer: [] }],
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
      description: 'Every path also answers without the /api prefix. Errors are {detail, message}.',
    },
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    paths,
  };
}

export async function registerOpenApi(app: FastifyInstance) {
  const document = buildOpenApiDocument();
  app.get('/api/openapi.json', async () => document);
}
