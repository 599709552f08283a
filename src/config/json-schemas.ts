// JSON Schemas of the config files a person edits, made from the schemas isdlc checks them with
// (schemas.ts), so an editor and isdlc agree on what a file may hold. Run by the build only
// (scripts/build.mjs), which writes them to dist/schemas/ and hands them to `isdlc init` to put in a
// project's `.isdlc/config/schemas/` (CONFIG_SCHEMAS_DIR).
//
// Each wrong value gets the sentence isdlc itself prints for it as the schema's `errorMessage` (per
// keyword, as validators such as Ajv with ajv-errors read it).
import { toJsonSchema, type ConversionConfig, type JsonSchema } from '@valibot/to-json-schema';
import { editableConfigSchemas, PLAIN_OBJECT_INNER } from './schemas.js';
import { DEFAULT_TIMEOUT_MINUTES } from './testing-config.js';

type WithMessage = { type?: unknown; message?: unknown };

/** The JSON Schema keyword a valibot schema's or action's own check turns into. */
const KEYWORD: Readonly<Record<string, string>> = {
  string: 'type',
  number: 'type',
  boolean: 'type',
  array: 'type',
  loose_object: 'type',
  object: 'type',
  record: 'type',
  union: 'anyOf',
  integer: 'type',
  min_value: 'minimum',
  max_value: 'maximum',
  min_length: 'minLength',
};

function withMessage(jsonSchema: JsonSchema, of: WithMessage): JsonSchema | undefined {
  const keyword = typeof of.type === 'string' ? KEYWORD[of.type] : undefined;
  if (!keyword || typeof of.message !== 'string') return undefined;
  const before = (jsonSchema as { errorMessage?: Record<string, string> }).errorMessage;
  return { ...jsonSchema, errorMessage: { ...before, [keyword]: of.message } } as JsonSchema;
}

const CONVERSION: ConversionConfig = {
  target: 'draft-07',
  typeMode: 'input',
  // A transformation (trimming) has no JSON Schema form; what comes after it is checked by isdlc alone.
  errorMode: 'ignore',
  overrideSchema: ({ valibotSchema, jsonSchema }) => {
    // A plain-object wrapper is a pipe whose real schema comes after a stand-in: converted on its own.
    const inner = PLAIN_OBJECT_INNER.get(valibotSchema);
    if (inner) {
      const { $schema: _draft, ...converted } = toJsonSchema(inner, CONVERSION);
      return converted;
    }
    return withMessage(jsonSchema, valibotSchema);
  },
  overrideAction: ({ valibotAction, jsonSchema }) => withMessage(jsonSchema, valibotAction as WithMessage),
};

/** Every editable config file's JSON Schema, by file name without `.json`. */
export function configJsonSchemas(): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  for (const [name, schema] of Object.entries(editableConfigSchemas(DEFAULT_TIMEOUT_MINUTES))) {
    const converted = toJsonSchema(schema, CONVERSION);
    out[name] = { ...converted, title: `isdlc ${name}.json`, description: `The shape isdlc checks .isdlc/config/${name}.json against.` };
  }
  return out;
}
