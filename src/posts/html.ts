import sanitizeHtml from 'sanitize-html';

// A safe allow-list: formatting, links and images, but no script, style, event handlers or javascript: URLs.
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [...sanitizeHtml.defaults.allowedTags, 'img', 'span', 'del', 'ins', 'sub', 'sup'],
  allowedAttributes: {
    a: ['href', 'title', 'target', 'rel'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    '*': ['class', 'id', 'lang', 'dir'],
  },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
};

const BLOCK = /<(p|div|ul|ol|li|h[1-6]|blockquote|pre|table|figure|section|article|hr|dl)[\s>/]/i;

/**
 * WordPress renders content with paragraphs ("a" becomes "<p>a</p>"); text that already has block markup
 * is kept as it is, so a rendered value sent back unchanged stays unchanged (round trip).
 */
function paragraphs(html: string): string {
  if (html === '' || BLOCK.test(html)) return html;
  return html
    .split(/\n\s*\n/)
    .map((block) => block.trim())
    .filter(Boolean)
    .map((block) => `<p>${block.replace(/\n/g, '<br />\n')}</p>`)
    .join('\n');
}

/** Description and excerpt as stored and shown: sanitized, then rendered with paragraphs. */
export function renderHtml(input: string): string {
  return paragraphs(sanitizeHtml(input.replace(/\r\n?/g, '\n'), OPTIONS).trim());
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/**
 * Stored HTML as plain text (schema.org descriptions, page summaries, feeds): tags go, block ends become
 * line breaks, and the entities the sanitizer writes (`&amp;`, `&lt;`, numeric ones) become their characters
 * again, or consumers would show `Rock &amp; Roll`.
 */
export function plainText(html: string): string {
  return html
    .replace(/<br\s*\/?>\n?|<\/(p|div|li|h[1-6]|blockquote|pre|tr)>\n?/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, name: string) => {
      if (name[0] !== '#') return ENTITIES[name.toLowerCase()] ?? entity;
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1));
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
    })
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
