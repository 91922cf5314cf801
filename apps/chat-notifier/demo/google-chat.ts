import { GoogleChatStandIn, type ChatSpace } from '../stand-ins/google-chat/google-chat.stand-in.js';
import type { ServiceAccountKeyFile } from '../stand-ins/google-chat/google-oauth.js';

/** The space of the demo (the examples name it: `space: spaces/AAAAreleases`). */
export const DEMO_CHAT_SPACE = 'AAAAreleases';

export interface GoogleChatDemo {
  chat: GoogleChatStandIn;
  space: ChatSpace;
  /** The key file of the demo's Chat app, a member of the space (a fresh key pair for every demo). */
  appKey: ServiceAccountKeyFile;
  env: Record<string, string>;
  close(): Promise<void>;
}

/** A local Google Chat with one space, its incoming webhook, and a Chat app added to it. */
export async function startGoogleChatDemo(): Promise<GoogleChatDemo> {
  const chat = await new GoogleChatStandIn().start();
  const { space, url } = chat.addSpace(DEMO_CHAT_SPACE);
  const appKey = chat.addApp(space);
  return {
    chat,
    space,
    appKey,
    env: {
      GOOGLE_CHAT_WEBHOOK_URL: url,
      GOOGLE_CHAT_SERVICE_ACCOUNT_JSON: JSON.stringify(appKey),
      GOOGLE_CHAT_API_URL: chat.url,
    },
    close: () => chat.close(),
  };
}
