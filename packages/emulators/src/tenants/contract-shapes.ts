// Checks a Graph response against the property shapes of Microsoft's contract extract
// (contracts/graph.json `shapes`): the tests of the emulator and the live suite hold what they are
// answered to it (ADR 064).
import {
  GRAPH_CONTRACT,
  contractPath,
  type GraphApiVersion,
  type PropertyShape,
} from './graph-contract';

type Json = Record<string, unknown>;

/** Where an object departs from Microsoft's property shapes (the contract extract's `shapes`). */
export function departures(shapes: Record<string, PropertyShape>, object: Json, at = ''): string[] {
  const problems: string[] = [];
  for (const key of Object.keys(object)) {
    if (!key.startsWith('@odata.') && !shapes[key]) problems.push(`${at}${key}: not in the type`);
  }
  for (const [name, shape] of Object.entries(shapes)) {
    const value = object[name];
    const path = `${at}${name}`;
    if (value === undefined || value === null) {
      if (shape.required) problems.push(`${path}: required`);
      continue;
    }
    const items = shape.collection ? value : [value];
    if (!Array.isArray(items)) {
      problems.push(`${path}: not a collection`);
      continue;
    }
    for (const item of items) {
      if (shape.enum && !shape.enum.includes(String(item))) problems.push(`${path}: ${item}`);
      else if (shape.properties) {
        if (typeof item !== 'object' || item === null) problems.push(`${path}: not an object`);
        else problems.push(...departures(shape.properties, item as Json, `${path}.`));
      } else if (shape.type === 'Edm.String' && typeof item !== 'string') {
        problems.push(`${path}: not a string`);
      } else if (shape.type === 'Edm.DateTimeOffset' && Number.isNaN(Date.parse(String(item)))) {
        problems.push(`${path}: not a date-time`);
      } else if (shape.type === 'Edm.Guid' && !/^[0-9a-f-]{36}$/i.test(String(item))) {
        problems.push(`${path}: not a GUID`);
      }
    }
  }
  return problems;
}

/** The property shapes of the entity type at a path; throws when the extract has none. */
export function shapesOf(version: GraphApiVersion, path: string): Record<string, PropertyShape> {
  const type = contractPath(version, path).entityType ?? '';
  const shapes = GRAPH_CONTRACT.versions[version].types[type]?.shapes;
  if (!shapes) throw new Error(`the contract extract has no shapes for ${type}`);
  return shapes;
}
