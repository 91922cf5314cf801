// Resource names of the Chat API (https://developers.google.com/workspace/chat/api/reference/rest):
// `spaces/{space}`, `spaces/{space}/messages/{message}`, `spaces/{space}/threads/{thread}`. A name a body
// gives is checked segment by segment against that shape before it goes into a URL or a request: an ID is
// letters, digits, `_` and `-`, in parts joined by single dots (system message IDs look like `abc.def`), so no
// segment is `.` or `..` and none can walk up the API's path.

const ID = /^[A-Za-z0-9_-]{1,200}(?:\.[A-Za-z0-9_-]{1,200})*$/;
const SPACE_ID = /^[A-Za-z0-9_-]{1,100}$/;

/** The collection of each resource under its space. */
export type ChatResource = 'space' | 'message' | 'thread';

const SHAPES: Record<ChatResource, readonly string[]> = {
  space: ['spaces'],
  message: ['spaces', 'messages'],
  thread: ['spaces', 'threads'],
};

/** Whether `name` is a resource name of that kind: `spaces/AAAA`, `spaces/AAAA/messages/x.y`, … */
export function isChatResourceName(name: string, resource: ChatResource): boolean {
  const segments = name.split('/');
  const shape = SHAPES[resource];
  if (segments.length !== shape.length * 2) return false;
  return shape.every(
    (collection, i) => segments[2 * i] === collection && (i === 0 ? SPACE_ID : ID).test(segments[2 * i + 1]!),
  );
}
