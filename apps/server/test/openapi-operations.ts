import type { FastifyInstance } from 'fastify';

/** One operation of the OpenAPI document, with a concrete path to call it on. */
export interface Operation {
  readonly method: string;
  /** The templated path, e.g. /api/backups/{client}. */
  readonly template: string;
  /** The path with sample parameter values. */
  readonly path: string;
  /** `x-aegis-access` (public, signed-in) or undefined. */
  readonly access?: string;
  /** `x-aegis-role`: the least Aegis role the operation needs. */
  readonly role?: string;
}

interface OpenApiDocument {
  paths: Record<string, Record<string, Record<string, unknown>>>;
}

const SAMPLE_PARAMS: Record<string, string> = {
  client: 'ABC',
  clientCode: 'ABC',
  table: 'ABCWorkstationApps',
  projectId: 'Aegis',
  pipelineId: '1',
  runId: '1',
  partitionKey: 'App',
  rowKey: '1',
  name: 'Notes',
};

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** Every operation the app's OpenAPI document lists, so new routes are covered without edits. */
export async function listOperations(app: FastifyInstance): Promise<Operation[]> {
  const response = await app.inject({ method: 'GET', url: '/api/docs/json' });
  const document = response.json() as OpenApiDocument;
  const operations: Operation[] = [];
  for (const [template, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const path = template.replace(/\{([^}]+)\}/g, (_m, name: string) =>
        encodeURIComponent(SAMPLE_PARAMS[name] ?? 'ABC'),
      );
      operations.push({
        method: method.toUpperCase(),
        template,
        path,
        access: operation['x-aegis-access'] as string | undefined,
        role: operation['x-aegis-role'] as string | undefined,
      });
    }
  }
  return operations;
}
