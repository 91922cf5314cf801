import { join } from 'node:path';
import { ESLint } from 'eslint';

const eslint = new ESLint({ cwd: join(import.meta.dirname, '..') });

/** The rules that fire on `text` as the file at `path`. */
async function firing(path: string, text: string): Promise<Array<string | null>> {
  const [result] = await eslint.lintText(text, { filePath: path });
  return result!.messages.map((m) => m.ruleId);
}

const CLASS_VALIDATOR_ENV = [
  "import { IsString } from 'class-validator';",
  '',
  'export class MyEnv {',
  '  @IsString()',
  '  MY_URL?: string;',
  '}',
  '',
].join('\n');

describe('eslint: class-validator in env and settings files', () => {
  it.each([
    'apps/my-thing/src/config/my-thing.env.ts',
    'apps/chat-notifier/src/providers/slack/slack-settings.ts',
    'apps/chat-notifier/src/shared/destination-settings.ts',
    'libs/plugin-kit/src/config/kit-env.ts',
  ])('refuses it in %s', async (path) => {
    expect(await firing(path, CLASS_VALIDATOR_ENV)).toEqual(['@typescript-eslint/no-restricted-imports']);
  });

  it("allows the kit's env rules there, a type from class-validator, and class-validator in a body class", async () => {
    const kitRules = CLASS_VALIDATOR_ENV.replace(
      "'class-validator'",
      "'@app/plugin-kit/config/env-rules.js'",
    );
    expect(await firing('apps/my-thing/src/config/my-thing.env.ts', kitRules)).toEqual([]);
    const typeOnly =
      "import type { ValidationError } from 'class-validator';\n\nexport type E = ValidationError;\n";
    expect(await firing('apps/my-thing/src/config/my-thing.env.ts', typeOnly)).toEqual([]);
    expect(await firing('apps/my-thing/src/dto/my-thing-config.dto.ts', CLASS_VALIDATOR_ENV)).toEqual([]);
  });
});
