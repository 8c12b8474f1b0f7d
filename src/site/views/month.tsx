import { formatDay, formatMonth, startTime, weekdayNames } from '../format.ts';
import type { GridDay } from '../month-grid.ts';
import { type Listing, ListingPage, StepNav, withQuery } from './listing.tsx';
import type { PageContext } from './page-context.ts';

/** The month view: a table of weeks (a list of days on a phone), each day with its first events. */
export function MonthPage(props: { ctx: PageContext; listing: Listing; month: string; previous: string; next: string; weeks: GridDay[][] }) {
  const { ctx, listing } = props;
  const title = formatMonth(ctx.language, props.month);
  const monthLink = (month: string) => ctx.href(withQuery(`${listing.base}/month/${month}/`, listing.keep));
  const dayLink = (day: string) => ctx.href(withQuery(`${listing.base}/${day}/`, listing.keep));
  const nav = (
    <StepNav
      ctx={ctx}
      label={ctx.words.month}
      previous={[monthLink(props.previous), ctx.words.previousMonth]}
      today={ctx.href(withQuery(`${listing.base}/month/`, listing.keep))}
      next={[monthLink(props.next), ctx.words.nextMonth]}
    />
  );
  return (
    <ListingPage ctx={ctx} listing={listing} view="month" title={`${listing.heading}: ${title}`} nav={nav}>
      <table class="month">
        <caption>{ctx.words.monthGrid(title)}</caption>
        <thead>
          <tr>{weekdayNames(ctx.language).map((name) => <th scope="col" abbr={name.long}>{name.short}</th>)}</tr>
        </thead>
        <tbody>
          {props.weeks.map((week) => (
            <tr>
              {week.map((cell) => (
                <td class={[cell.inMonth ? 'in-month' : 'other-month', cell.today ? 'today' : ''].join(' ').trim()}>
                  <a class="day-number" href={dayLink(cell.day)} aria-label={formatDay(ctx.language, cell.day)}>
                    {Number(cell.day.slice(8))}
                  </a>
                  {cell.events.length > 0 && (
                    <ul>
                      {cell.events.map((event) => (
                        <li class={event.featured ? 'featured' : undefined}>
                          <a href={ctx.href(`/event/${encodeURIComponent(event.slug)}/`)}>
                            {!event.allDay && cell.day === event.start.slice(0, 10) && (
                              <span class="time">{startTime(ctx.language, { start_date: event.start, end_date: event.end, all_day: false, timezone_abbr: '' })} </span>
                            )}
                            {event.title}
                          </a>
                        </li>
                      ))}
                    </ul>
                  )}
                  {cell.more > 0 && <a class="more" href={dayLink(cell.day)}>{ctx.words.moreEvents(cell.more)}</a>}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </ListingPage>
  );
}
