import { IsNotEmpty, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { IsScalarList, type Scalar } from '../../dto/validators.js';

/** Warehouse, database, schema and role names as the SQL API takes them (case-sensitive, unquoted). */
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_$]{0,254}$/;
const identifier = (field: string) =>
  Matches(IDENTIFIER, { message: `${field} must be a Snowflake identifier (letters, digits, "_" or "$")` });

/** `snowflake:` — run one SQL statement through the SQL API v2, asynchronously. */
export class SnowflakeBlock {
  /** One statement (a Snowflake Scripting block `EXECUTE IMMEDIATE $$ … $$` or a `CALL` counts as one). */
  @IsString()
  @IsNotEmpty()
  @MaxLength(1_000_000)
  statement!: string;

  /** Values of the statement's `?` placeholders, in order: sent as bindings, never spliced into the SQL. */
  @IsOptional()
  @IsScalarList()
  bindings?: Scalar[];

  @IsOptional()
  @IsString()
  @identifier('warehouse')
  warehouse?: string;

  @IsOptional()
  @IsString()
  @identifier('database')
  database?: string;

  @IsOptional()
  @IsString()
  @identifier('schema')
  schema?: string;

  @IsOptional()
  @IsString()
  @identifier('role')
  role?: string;

  /** The session's QUERY_TAG, shown in the query history. */
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  queryTag?: string;
}
