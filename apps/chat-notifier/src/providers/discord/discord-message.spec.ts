import { renderDiscord } from './discord-message.js';
import type { DiscordConfig } from './discord-block.dto.js';

// A lone surrogate is what a cut would leave of 😀 (two UTF-16 units): JSON carries it as \ud83d, Discord
// shows U+FFFD.
const wellFormed = (text: string) => Buffer.from(text, 'utf8').toString('utf8') === text;

describe('renderDiscord', () => {
  it('cuts content, description and field values to their limits, never a character outside the BMP in half', () => {
    for (const offset of [0, 1]) {
      const text = `${'.'.repeat(offset)}${'😀'.repeat(3000)}`;
      const plain = renderDiscord({ text } as DiscordConfig);
      const embed = renderDiscord({
        text,
        status: 'failed',
        fields: [{ name: 'log', value: text }],
      } as DiscordConfig).embeds[0]!;
      const cut = [plain.content, embed.description!, embed.fields![0]!.value];
      expect([offset, cut.map((t) => t.length), cut.map(wellFormed)]).toEqual([
        offset,
        [offset ? 2000 : 1999, offset ? 4096 : 4095, offset ? 1024 : 1023],
        [true, true, true],
      ]);
      expect(cut.every((t) => t.endsWith('😀…'))).toBe(true);
    }
  });
});
