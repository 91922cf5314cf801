// How Argo turns an expression result into a parameter string (workflow/common/convert.go + Item.String).
import { Fault } from './errors.js';
import { marshal } from './go-json.js';
import { fromJs } from './values.js';

/**
 * `json.Marshal(result)`, then a leading `"` drops the first and last byte WITHOUT unescaping, then
 * `\u003c \u003e \u0026` become `< > &` again (anywhere in the text, as Go's Fix does). nil gives `null`.
 */
export function toParameterValue(result: unknown): string {
  let text: string;
  try {
    text = marshal(fromJs(result));
  } catch (e) {
    if (e instanceof Fault) throw new Error(e.reason, { cause: e });
    throw e;
  }
  if (text.startsWith('"')) text = text.slice(1, -1);
  return text.replaceAll('\\u003c', '<').replaceAll('\\u003e', '>').replaceAll('\\u0026', '&');
}
