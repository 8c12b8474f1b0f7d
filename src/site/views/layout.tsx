import type { ComponentChildren } from 'preact';
import type { PageContext } from './page-context.ts';

export const STYLESHEET = '/assets/cal-events.css';

/** The document around every page: language, stylesheet, header with the language switch, main landmark. */
export function Layout(props: { ctx: PageContext; title: string; head?: ComponentChildren; children: ComponentChildren }) {
  const { ctx } = props;
  return (
    <html lang={ctx.language}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${props.title} – ${ctx.siteName}`}</title>
        <link rel="stylesheet" href={STYLESHEET} />
        {/* No icon of its own: this keeps browsers from asking for /favicon.ico and logging a 404. */}
        <link rel="icon" href="data:," />
        {props.head}
      </head>
      <body>
        <a class="skip" href="#main">{ctx.words.skipToContent}</a>
        <header class="site-header">
          <a class="brand" href={ctx.href('/events/')}>{ctx.siteName}</a>
          {ctx.languages.length > 1 && (
            <nav aria-label={ctx.words.language} class="languages">
              <ul>
                {ctx.languages.map((code) => (
                  <li>
                    <a href={`/${code}${ctx.path}`} hrefLang={code} lang={code} aria-current={code === ctx.language ? 'true' : undefined}>
                      {code.toUpperCase()}
                    </a>
                  </li>
                ))}
              </ul>
            </nav>
          )}
        </header>
        <main id="main">{props.children}</main>
      </body>
    </html>
  );
}

/** A small page with a heading and a message: errors and the 404 page. */
export function MessagePage(props: { ctx: PageContext; title: string; text: string; items?: string[] }) {
  return (
    <Layout ctx={props.ctx} title={props.title} head={<meta name="robots" content="noindex" />}>
      <h1>{props.title}</h1>
      <p>{props.text}</p>
      {props.items && props.items.length > 0 && (
        <ul class="problems">
          {props.items.map((item) => <li><code>{item}</code></li>)}
        </ul>
      )}
      <p><a href={props.ctx.href('/events/')}>{props.ctx.words.backToEvents}</a></p>
    </Layout>
  );
}
