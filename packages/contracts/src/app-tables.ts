import {
  APP_FIELDS,
  APP_TABLE_NAME_PATTERN,
  appNameProblem,
  CLIENT_CODE_PATTERN,
  entityKeyProblem,
  entitySizeInBytes,
  fitsStringProperty,
  isProtectedKey,
  MAX_ENTITY_BYTES,
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

/** The only tables the routes read or change: GENWorkstationApps and '{CODE}WorkstationApps'. */
export const appTableNameSchema = z
  .string()
  .regex(APP_TABLE_NAME_PATTERN, "must be an app table named '{ClientCode}WorkstationApps'");

export const tableParamsSchema = z.object({ table: appTableNameSchema });
export const appTableParamsSchema = z.object({ table: appTableNameSchema });
export type TableParams = z.infer<typeof tableParamsSchema>;

export const listTablesResponseSchema = z.object({ tables: z.array(z.string()) });
export type ListTablesResponse = z.infer<typeof listTablesResponseSchema>;

export const tableRowsResponseSchema = z.object({
  table: z.string(),
  rows: z.array(appTableEntitySchema),
});
export type TableRowsResponse = z.infer<typeof tableRowsResponseSchema>;

export const createTableRequestSchema = z.strictObject({ clientCode: appTableClientCodeSchema });
export type CreateTableRequest = z.infer<typeof createTableRequestSchema>;

/** 201 created: the message is shown as success; a 409 comes as an error body with the service's message. */
export const createTableResponseSchema = z.object({
  status: z.literal(201),
  table: z.string(),
  message: z.string(),
});
export type CreateTableResponse = z.infer<typeof createTableResponseSchema>;

/** A PartitionKey or RowKey value Table storage accepts: no / \\ # ?, no control characters. */
export const entityKeySchema = z.string().superRefine((value, ctx) => {
  const problem = entityKeyProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

export const entityKeysSchema = z.object({
  partitionKey: entityKeySchema,
  rowKey: entityKeySchema,
});
export type EntityKeysDto = z.infer<typeof entityKeysSchema>;

export const failedRowSchema = z.object({
  partitionKey: z.string(),
  rowKey: z.string(),
  message: z.string(),
  statusCode: z.number().int().optional(),
});

/** Outcome of a change to one or many rows that all applied (`failed` is then empty). */
export const tableOperationResponseSchema = z.object({
  status: z.literal(200),
  message: z.string(),
  succeeded: z.number().int(),
  failed: z.array(failedRowSchema),
});
export type TableOperationResponse = z.infer<typeof tableOperationResponseSchema>;

/**
 * The error body when some rows of an operation failed (ADR 012): answered with 409 when rows
 * lost to concurrent changes, else the status of the service's failure; never a 2xx.
 */
export const tableRowsFailedSchema = z.object({
  error: z.string(),
  statusCode: z.number().int(),
  message: z.string(),
  succeeded: z.number().int(),
  failed: z.array(failedRowSchema),
});
export type TableRowsFailed = z.infer<typeof tableRowsFailedSchema>;

const STRING_LIMIT = "must be at most 64 KiB (Table storage's limit for a string property)";

/** A string Table storage can hold in one property: at most 64 KiB of UTF-16. */
const propertyStringSchema = z.string().refine((value) => fitsStringProperty(value), STRING_LIMIT);

/** Copy apps of a source table (GENWorkstationApps by default) into the table, with fresh RowKeys. */
export const copyAppsRequestSchema = z.strictObject({
  source: appTableNameSchema.default('GENWorkstationApps'),
  rowKeys: z.array(entityKeySchema).min(1, 'Please select at least one application.'),
});
export type CopyAppsRequest = z.input<typeof copyAppsRequestSchema>;

/**
 * An AppName as the pipeline YAML may carry it (ADR 056); empty is left to the server's
 * required-fields check so the form's own message is shown.
 */
const appNameSchema = z.string().superRefine((name, ctx) => {
  const problem = name.trim() === '' ? undefined : appNameProblem(name);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

const appFieldsShape = {
  ...(Object.fromEntries(APP_FIELDS.map((field) => [field, propertyStringSchema])) as Record<
    AppField,
    typeof propertyStringSchema
  >),
  AppName: appNameSchema,
};

/** The new-app form; the server checks the required fields and assigns the next RowKey. */
export const newAppRequestSchema = z.strictObject({ app: z.strictObject(appFieldsShape) });
export type NewAppRequest = z.infer<typeof newAppRequestSchema>;

export const newAppResponseSchema = tableOperationResponseSchema.extend({
  entity: appTableEntitySchema,
});
export type NewAppResponse = z.infer<typeof newAppResponseSchema>;

const PROPERTY_NAME_RULE = 'must be letters, digits or _ and start with a letter or _';

const propertyNameSchema = z
  .string()
  .regex(PROPERTY_NAME_PATTERN, PROPERTY_NAME_RULE)
  .refine(
    (name) => !isProtectedKey(name),
    'PartitionKey, RowKey, timestamp and etag cannot be changed',
  );

export const entityParamsSchema = appTableParamsSchema.extend({
  partitionKey: entityKeySchema,
  rowKey: entityKeySchema,
});
export type EntityParams = z.infer<typeof entityParamsSchema>;

/** Properties to merge into one row; `etag` makes the update conditional on the row unchanged. */
export const updateAppRequestSchema = z.strictObject({
  properties: z.record(z.string(), appTableValueSchema).superRefine((properties, ctx) => {
    const names = Object.keys(properties);
    if (names.length === 0) {
      ctx.addIssue({ code: 'custom', message: 'give at least one property to change' });
      return;
    }
    for (const name of names) {
      if (isProtectedKey(name)) {
        ctx.addIssue({
          code: 'custom',
          path: [name],
          message: 'PartitionKey, RowKey, timestamp and etag cannot be changed',
        });
      } else if (!PROPERTY_NAME_PATTERN.test(name)) {
        ctx.addIssue({ code: 'custom', path: [name], message: PROPERTY_NAME_RULE });
      } else if (!fitsStringProperty(properties[name])) {
        ctx.addIssue({ code: 'custom', path: [name], message: STRING_LIMIT });
      } else if (name === 'AppName') {
        const value = properties[name];
        const problem =
          typeof value === 'string' ? appNameProblem(value) : 'must be the app name as text';
        if (problem) ctx.addIssue({ code: 'custom', path: [name], message: problem });
      }
    }
    const size = entitySizeInBytes(properties);
    if (size > MAX_ENTITY_BYTES) {
      ctx.addIssue({
        code: 'custom',
        message: `the properties take ${size} bytes, above Table storage's 1 MiB per entity`,
      });
    }
  }),
  etag: z.string().optional(),
});
export type UpdateAppRequest = z.infer<typeof updateAppRequestSchema>;

export const deleteAppsRequestSchema = z.strictObject({
  keys: z.array(entityKeysSchema.strict()).min(1, 'Please select at least one application.'),
});
export type DeleteAppsRequest = z.infer<typeof deleteAppsRequestSchema>;

export const addPropertyRequestSchema = z
  .strictObject({
    name: propertyNameSchema,
    value: z
      .string()
      .min(1, 'Please fill in both property name and value.')
      .refine((value) => fitsStringProperty(value), STRING_LIMIT),
  })
  .superRefine(({ name, value }, ctx) => {
    // a property added to every row under the name AppName is an app name too
    const problem = name === 'AppName' ? appNameProblem(value) : undefined;
    if (problem) ctx.addIssue({ code: 'custom', path: ['value'], message: problem });
  });
export type AddPropertyRequest = z.infer<typeof addPropertyRequestSchema>;

export const propertyParamsSchema = appTableParamsSchema.extend({ name: propertyNameSchema });
export type PropertyParams = z.infer<typeof propertyParamsSchema>;
