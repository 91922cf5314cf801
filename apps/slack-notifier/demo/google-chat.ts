import { GoogleChatStandIn, type ChatSpace } from '../stand-in/google-chat/google-chat.stand-in.js';

export interface GoogleChatDemo {
  chat: GoogleChatStandIn;
  space: ChatSpace;
  env: Record<string, string>;
  close(): Promise<void>;
}

/** A local Google Chat with one space and its incoming webhook. */
export async function startGoogleChatDemo(): Promise<GoogleChatDemo> {
  const chat = await new GoogleChatStandIn().start();
  const { space, url } = chat.addSpace();
  return { chat, space, env: { GOOGLE_CHAT_WEBHOOK_URL: url }, close: () => chat.close() };
}
