import {
  APP_FIELDS,
  CLIENT_CODE_PATTERN,
  isProtectedKey,
  PROPERTY_NAME_PATTERN,
  TABLE_NAME_PATTERN,
  type AppField,
} from '@aegis/domain';
import { z } from 'zod';

/** A table name as Table storage accepts it: a letter, then letters or digits, 3–63 characters. */
export const tableNameSchema = z
  .string()
  .regex(TABLE_NAME_PATTERN, 'must be 3-63 letters or digits starting with a letter');

export const appTableClientCodeSchema = z
  .string()
  .regex(CLIENT_CODE_PATTERN, 'Client code must be exactly 3 uppercase letters.');

export const appTableValueSchema = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/** One row of an app deployment table (spec 2 §3); tables may carry extra properties. */
export const appTableEntitySchema = z
  .object({
    PartitionKey: z.string().min(1),
    RowKey: z.string().min(1),
    timestamp: z.string().optional(),
    etag: z.string().optional(),
  })
  .catchall(appTableValueSchema.optional());
export type AppTableEntityDto = z.infer<typeof appTableEntitySchema>;

/** Tables the screens may change: '{ClientCode}WorkstationApps' (GENWorkstationApps included). */
export const appTableNameSchema = z
  .string()
  .regex(/^[A-Z]{3}WorkstationApps$/, "must be an app table named '{ClientCode}WorkstationApps'");

export const tableParamsSchema = z.object({ table: tableNameSchema });
export const appTableParamsSchema = z.object({ table: appTableNameSchema });
export type TableParams = z.infer<typeof tableParamsSchema>;

export const listTablesResponseSchema = z.object({ tables: z.array(z.string()) });
export type ListTablesResponse = z.infer<typeof listTablesResponseSchema>;

export const tableRowsResponseSchema = z.object({
  table: z.string(),
  rows: z.array(appTableEntitySchema),
});
export type TableRowsResponse = z.infer<typeof tableRowsResponseSchema>;

export const createTableRequestSchema = z.object({ clientCode: appTableClientCodeSchema });
export type CreateTableRequest = z.infer<typeof createTableRequestSchema>;

/** 201 created: the message is shown as success; a 409 comes as an error body with the service's message. */
export const createTableResponseSchema = z.object({
  status: z.literal(201),
  table: z.string(),
  message: z.string(),
});
export type CreateTableResponse = z.infer<typeof createTableResponseSchema>;

export const entityKeysSchema = z.object({
  partitionKey: z.string().min(1),
  rowKey: z.string().min(1),
});
export type EntityKeysDto = z.infer<typeof entityKeysSchema>;

export const failedRowSchema = entityKeysSchema.extend({ message: z.string() });

/** Outcome of a change to one or many rows: rows that failed keep the service's message. */
export const tableOperationResponseSchema = z.object({
  status: z.literal(200),
  message: z.string(),
  succeeded: z.number().int(),
  failed: z.array(failedRowSchema),
});
export type TableOperationResponse = z.infer<typeof tableOperationResponseSchema>;

/** Copy apps of a source table (GENWorkstationApps by default) into the table, with fresh RowKeys. */
export const copyAppsRequestSchema = z.object({
  source: tableNameSchema.default('GENWorkstationApps'),
  rowKeys: z.array(z.string().min(1)).min(1, 'Please select at least one application.'),
});
export type CopyAppsRequest = z.input<typeof copyAppsRequestSchema>;

const appFieldsShape = Object.fromEntries(
  APP_FIELDS.map((field) => [field, z.string().max(32_000)]),
) as Record<AppField, z.ZodString>;

/** The new-app form; the server checks the required fields and assigns the next RowKey. */
export const newAppRequestSchema = z.object({ app: z.object(appFieldsShape) });
export type NewAppRequest = z.infer<typeof newAppRequestSchema>;

export const newAppResponseSchema = tableOperationResponseSchema.extend({
  entity: appTableEntitySchema,
});
export type NewAppResponse = z.infer<typeof newAppResponseSchema>;

const propertyNameSchema = z
  .string()
  .regex(PROPERTY_NAME_PATTERN, 'must be letters, digits or _ and start with a letter or _')
  .refine(
    (name) => !isProtectedKey(name),
    'PartitionKey, RowKey, timestamp and etag cannot be changed',
  );

export const entityParamsSchema = appTableParamsSchema.extend({
  partitionKey: z.string().min(1),
  rowKey: z.string().min(1),
});
export type EntityParams = z.infer<typeof entityParamsSchema>;

/** Properties to merge into one row; `etag` makes the update conditional on the row unchanged. */
export const updateAppRequestSchema = z.object({
  properties: z
    .record(z.string(), appTableValueSchema)
    .refine(
      (properties) => Object.keys(properties).every((name) => !isProtectedKey(name)),
      'PartitionKey, RowKey, timestamp and etag cannot be changed',
    ),
  etag: z.string().optional(),
});
export type UpdateAppRequest = z.infer<typeof updateAppRequestSchema>;

export const deleteAppsRequestSchema = z.object({
  keys: z.array(entityKeysSchema).min(1, 'Please select at least one application.'),
});
export type DeleteAppsRequest = z.infer<typeof deleteAppsRequestSchema>;

export const addPropertyRequestSchema = z.object({
  name: propertyNameSchema,
  value: z.string().min(1, 'Please fill in both property name and value.'),
});
export type AddPropertyRequest = z.infer<typeof addPropertyRequestSchema>;

export const propertyParamsSchema = appTableParamsSchema.extend({ name: propertyNameSchema });
export type PropertyParams = z.infer<typeof propertyParamsSchema>;
