// The islands' (and server pages') table: columns with widths, long values cut with an ellipsis and
// shown whole in a tooltip, sort links and a pager that work without JavaScript (plain links in the
// page URL), row actions in a last column that stays in view while the rest scrolls sideways, an
// empty state with a call to action, and below 960px a card per row (each value beside its column's
// name, drawn from the cell's data-label by CSS so the cell's text stays the value). The card
// layout is CSS alone (rules `.dt-*` in uno.config.ts), so the server's markup is already right on
// a phone; the explicit roles keep the table's semantics when the cards change the elements'
// display. Decision 0032.
import { useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import type { T } from '../../shared/i18n';
import { moveMenuFocus } from './menu-keys';
import { listQueryString, nextSort, PAGE_SIZES, pageCount, type ListQuery } from '../../shared/list-query';
import { WhyHint } from './why-hint';

export interface DataColumn<R> {
  /** Stable key (also the sort column's name when `sortable`). */
  key: string;
  header: string;
  /**
   * Width as a utility class written out in the caller's source ("w-[6rem]": UnoCSS finds classes
   * by reading the .tsx files, and the CSP allows no style attributes); none: what is left.
   */
  width?: string;
  /** The cell's content. */
  render: (row: R) => ReactNode;
  /**
   * Cut to one line with an ellipsis; the text given here (the whole value) is the tooltip. Use it
   * for values of unknown length (names, addresses, departments).
   */
  truncate?: (row: R) => string;
  /** Sort by this column through the sort links (needs the table's `sort`). */
  sortable?: boolean;
  /** Extra classes of the cells (e.g. "whitespace-nowrap"). */
  className?: string;
  /**
   * Its place in the compact card below 960px (issue 27 part 3, decision 0044), when the table
   * has any: `title` (bold, first line), `subtitle` (under it), `chip` (a pill on one line with the
   * others), `detail` (behind the row's details disclosure). None: `detail`.
   */
  compact?: 'title' | 'subtitle' | 'chip' | 'detail';
}

export interface RowAction {
  /** The visible label. */
  label: string;
  /** The accessible name when the label alone is ambiguous across rows ("Edit 山田 太郎"). */
  ariaLabel?: string;
  onSelect: () => void;
  disabled?: boolean;
  /** id of the text that says why it is disabled. */
  describedBy?: string;
  /** Why it is disabled, shown under it and tied to it (decision 0047); instead of describedBy. */
  why?: string;
  danger?: boolean;
  /** The row's main action (as buttons only): drawn filled. */
  primary?: boolean;
}

export interface DataTableSort {
  query: ListQuery;
  path: string;
  /** Columns that start descending (dates). */
  dateColumns: readonly string[];
  defaults?: ListQuery;
}

export interface DataTableProps<R> {
  t: T;
  /** Names the table (a caption screen readers announce). */
  caption: string;
  columns: DataColumn<R>[];
  rows: R[];
  rowKey: (row: R) => string | number;
  /** Attributes of a row (data-testid, data-id, ...). */
  rowAttrs?: (row: R) => Record<string, string | number | undefined>;
  /**
   * Row actions. `menu`: one button per row opening a menu (the label names the row, e.g. "Actions
   * for 山田 太郎"); `buttons`: the actions side by side; `custom`: whatever `render` gives (a link).
   */
  actions?:
    | { header: string; width: string; kind: 'menu'; menuLabel: (row: R) => string; items: (row: R) => RowAction[]; disabled?: (row: R) => boolean }
    | { header: string; width: string; kind: 'buttons'; items: (row: R) => RowAction[] }
    | { header: string; width: string; kind: 'custom'; render: (row: R) => ReactNode };
  sort?: DataTableSort;
  /** Shown instead of the rows when there are none: a sentence and, where there is one, what to do. */
  empty: { text: string; action?: ReactNode };
  /** A min-width class ("min-w-[56rem]"): narrower, the table scrolls sideways (the actions stay in view) rather than crushing its columns. */
  minWidth?: string;
  testId?: string;
  /**
   * The compact card's details disclosure: a button per row (default), or `none` when the caller
   * offers the rest another way (a server page without islands: a link to the entry).
   */
  details?: 'toggle' | 'none';
  /** Names the row in the disclosure's accessible name ("詳細を表示 山田 太郎"): the visible words first. */
  detailsLabel?: (row: R) => string;
}

const TH = 'dt-th px-2 py-2 text-left font-semibold';
const TD = 'dt-td px-2 py-2 align-middle';

export function SortLink({ t, label, column, sort }: { t: T; label: string; column: string; sort: DataTableSort }) {
  const active = sort.query.sort === column;
  const href = `${sort.path}${listQueryString(nextSort(sort.query, column, sort.dateColumns), sort.defaults)}`;
  return (
    <a href={href} className="inline-flex max-w-full items-center text-slate-900 no-underline hover:underline" data-testid={`sort-${column}`} title={label}>
      <span className="truncate">{label}</span>
      <span aria-hidden="true" className="ml-1 shrink-0 text-slate-700">
        {active ? (sort.query.dir === 'asc' ? '▲' : '▼') : '↕'}
      </span>
      <span className="sr-only">
        {' '}
        {t(active ? (sort.query.dir === 'asc' ? 'people.list.sortedAsc' : 'people.list.sortedDesc') : 'people.list.sortable')}
      </span>
    </a>
  );
}

const ITEM = 'block w-full rounded border-0 bg-white px-3 py-2 text-left text-sm text-slate-900 hover:bg-slate-100 disabled:cursor-not-allowed disabled:text-slate-600';
const SMALL_BUTTON =
  'rounded border border-slate-600 bg-white px-2 py-1 text-sm text-slate-900 hover:bg-slate-100 disabled:cursor-not-allowed disabled:border-slate-400 disabled:text-slate-700';
const SMALL_PRIMARY = 'rounded border border-blue-800 bg-blue-800 px-2 py-1 text-sm font-medium text-white hover:bg-blue-900 disabled:cursor-not-allowed disabled:border-slate-400 disabled:bg-slate-400 disabled:text-slate-900';
const SMALL_DANGER = 'rounded border border-red-800 bg-white px-2 py-1 text-sm text-red-800 hover:bg-red-50 disabled:cursor-not-allowed disabled:border-slate-400 disabled:text-slate-700';

/**
 * A row's actions as a menu: the native popover (top layer, so no table's overflow clips it; a
 * click outside or Escape closes it and focus goes back to the button) placed under its button by
 * CSS anchor positioning (the button that opens a popover is its implicit anchor: no inline style,
 * which the CSP refuses). Arrow keys, Home and End move between the items. `items` is asked for
 * only while the button is enabled (the lists disable it until hydration): a disabled button
 * cannot open its menu, so the server does not render items nobody can reach.
 */
export function RowMenu({ id, label, buttonText, items, disabled }: { id: string; label: string; buttonText: string; items: () => RowAction[]; disabled?: boolean }) {
  const menuRef = useRef<HTMLDivElement>(null);
  const onKey = (e: KeyboardEvent<HTMLDivElement>) => moveMenuFocus(e, [...e.currentTarget.querySelectorAll<HTMLButtonElement>('button:not(:disabled)')]);
  return (
    <>
      <button
        type="button"
        className={SMALL_BUTTON}
        popoverTarget={id}
        aria-label={label}
        disabled={disabled}
        data-testid="row-menu-button"
      >
        {buttonText}
        <span aria-hidden="true" className="ml-1">
          ▾
        </span>
      </button>
      <div
        ref={menuRef}
        id={id}
        popover="auto"
        className="dt-menu m-0 min-w-44 rounded border border-slate-300 bg-white p-1 shadow-lg"
        onKeyDown={onKey}
        onToggle={(e) => {
          // Opened: the first item takes the focus, as in a menu.
          if ((e.nativeEvent as ToggleEvent).newState === 'open') menuRef.current?.querySelector<HTMLButtonElement>('button:not(:disabled)')?.focus();
        }}
      >
        {!disabled && (
          <ul className="m-0 list-none p-0" aria-label={label}>
            {items().map((a, i) => (
              <li key={a.label}>
                <button
                  type="button"
                  className={`${ITEM} ${a.danger ? 'text-red-800' : ''}`}
                  disabled={a.disabled}
                  aria-label={a.ariaLabel}
                  aria-describedby={a.disabled && a.why ? `${id}-why-${i}` : a.describedBy}
                  onClick={() => {
                    menuRef.current?.hidePopover();
                    a.onSelect();
                  }}
                >
                  {a.label}
                </button>
                {a.disabled && a.why && <WhyHint id={`${id}-why-${i}`} reason={a.why} className="max-w-60 px-3 pb-1 text-xs" />}
              </li>
            ))}
          </ul>
        )}
      </div>
    </>
  );
}

export function DataTable<R>(p: DataTableProps<R>) {
  const { t } = p;
  const colCount = p.columns.length + (p.actions ? 1 : 0);
  // Compact cards (below 960px): what a person scans for on one card, the rest behind a disclosure.
  const compact = p.columns.some((c) => c.compact !== undefined);
  const place = (c: DataColumn<R>) => c.compact ?? 'detail';
  const hasDetails = compact && p.columns.some((c) => place(c) === 'detail');
  const toggle = hasDetails && (p.details ?? 'toggle') === 'toggle';
  // The disclosure sits in the last cell shown on the card.
  const lastShown = [...p.columns].reverse().find((c) => place(c) !== 'detail')?.key;
  const [open, setOpen] = useState<ReadonlySet<string | number>>(() => new Set());
  const flip = (key: string | number) =>
    setOpen((s) => {
      const next = new Set(s);
      if (!next.delete(key)) next.add(key);
      return next;
    });
  const idBase = `dt-${p.testId ?? 'table'}`;
  return (
    <div className="dt-wrap overflow-x-auto rounded-lg bg-white shadow" data-testid={p.testId ? `${p.testId}-wrap` : undefined}>
      <table role="table" className={`dt-table w-full border-collapse text-left text-sm ${compact ? 'dt-compact' : ''} ${p.minWidth ?? ''}`} data-testid={p.testId}>
        <caption className="sr-only">{p.caption}</caption>
        <colgroup>
          {p.columns.map((c) => (
            <col key={c.key} className={c.width} />
          ))}
          {p.actions && <col className={p.actions.width} />}
        </colgroup>
        <thead role="rowgroup" className="bg-slate-100">
          <tr role="row">
            {p.columns.map((c) => {
              const active = p.sort && c.sortable && p.sort.query.sort === c.key;
              return (
                <th
                  key={c.key}
                  role="columnheader"
                  scope="col"
                  className={TH}
                  aria-sort={active ? (p.sort!.query.dir === 'asc' ? 'ascending' : 'descending') : undefined}
                >
                  {p.sort && c.sortable ? (
                    <SortLink t={t} label={c.header} column={c.key} sort={p.sort} />
                  ) : (
                    <span className="dt-truncate block" title={c.header}>
                      {c.header}
                    </span>
                  )}
                </th>
              );
            })}
            {p.actions && (
              <th role="columnheader" scope="col" className={`${TH} dt-actions`}>
                {p.actions.header}
              </th>
            )}
          </tr>
        </thead>
        <tbody role="rowgroup">
          {p.rows.length === 0 && (
            <tr role="row" className="dt-empty">
              <td role="cell" colSpan={colCount} className="px-3 py-8 text-center text-slate-700" data-testid={p.testId ? `${p.testId}-empty` : 'table-empty'}>
                <p className="m-0">{p.empty.text}</p>
                {p.empty.action && <div className="mt-3">{p.empty.action}</div>}
              </td>
            </tr>
          )}
          {p.rows.map((r) => {
            const key = p.rowKey(r);
            const isOpen = open.has(key);
            const menu = p.actions?.kind === 'menu' ? p.actions : null;
            const detailIds = p.columns.filter((c) => place(c) === 'detail').map((c) => `${idBase}-${key}-${c.key}`);
            return (
            <tr role="row" key={key} className={`dt-row border-t border-slate-200 ${isOpen ? 'dt-open' : ''}`} {...(p.rowAttrs?.(r) ?? {})}>
              {p.columns.map((c) => {
                const whole = c.truncate?.(r);
                const where = compact ? `dt-c-${place(c)}` : '';
                return (
                  <td
                    role="cell"
                    key={c.key}
                    id={compact && place(c) === 'detail' ? `${idBase}-${key}-${c.key}` : undefined}
                    className={`${TD} ${where} ${c.className ?? ''}`}
                    data-label={c.header}
                  >
                    {whole !== undefined ? (
                      <span className="dt-truncate dt-value block" title={whole}>
                        {c.render(r)}
                      </span>
                    ) : (
                      <span className="dt-value block">{c.render(r)}</span>
                    )}
                    {toggle && c.key === lastShown && (
                      // Only on the compact card (CSS hides it from 960px up, where every column shows).
                      <button
                        type="button"
                        className="dt-toggle mt-1 rounded border-0 bg-transparent px-0 py-1 text-sm text-blue-800 underline"
                        aria-expanded={isOpen}
                        aria-controls={detailIds.join(' ')}
                        data-testid="row-details-toggle"
                        onClick={() => flip(key)}
                      >
                        <span aria-hidden="true" className="mr-1 inline-block">
                          {isOpen ? '▾' : '▸'}
                        </span>
                        {t(isOpen ? 'people.list.hideDetails' : 'people.list.details')}
                        {p.detailsLabel && <span className="sr-only"> {p.detailsLabel(r)}</span>}
                      </button>
                    )}
                  </td>
                );
              })}
              {p.actions && (
                <td role="cell" className={`${TD} dt-actions ${p.actions.kind === 'buttons' && p.actions.items(r).length === 0 ? 'dt-no-actions' : ''}`} data-label={p.actions.header}>
                  <span className="dt-value flex flex-wrap gap-1">
                    {menu ? (
                      <RowMenu
                        id={`row-menu-${p.testId ?? 'table'}-${key}`}
                        label={menu.menuLabel(r)}
                        buttonText={menu.header}
                        items={() => menu.items(r)}
                        disabled={menu.disabled?.(r)}
                      />
                    ) : p.actions.kind === 'custom' ? (
                      p.actions.render(r)
                    ) : (
                      p.actions.items(r).map((a) => (
                        <button
                          key={a.label}
                          type="button"
                          className={a.danger ? SMALL_DANGER : a.primary ? SMALL_PRIMARY : SMALL_BUTTON}
                          disabled={a.disabled}
                          aria-label={a.ariaLabel}
                          aria-describedby={a.describedBy}
                          onClick={a.onSelect}
                        >
                          {a.label}
                        </button>
                      ))
                    )}
                  </span>
                </td>
              )}
            </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** "1-25 of 120", previous and next page, and the page sizes (spec 02 section 9: 5, 10, 25, 100). */
export function Pager({
  t,
  query,
  total,
  path,
  sizes = PAGE_SIZES,
  defaults,
}: {
  t: T;
  query: ListQuery;
  total: number;
  path: string;
  sizes?: readonly number[];
  defaults?: ListQuery;
}) {
  const pages = pageCount(total, query.perPage);
  const first = total === 0 ? 0 : (query.page - 1) * query.perPage + 1;
  const last = Math.min(total, query.page * query.perPage);
  const href = (patch: Partial<ListQuery>) => `${path}${listQueryString({ ...query, ...patch }, defaults)}`;
  const pageLink = (page: number, label: string, testId: string) =>
    page < 1 || page > pages || page === query.page ? (
      <span aria-disabled="true" className="rounded border border-slate-300 px-3 py-1 text-slate-600">
        {label}
      </span>
    ) : (
      <a href={href({ page })} className="rounded border border-slate-600 bg-white px-3 py-1 text-slate-900 no-underline hover:bg-slate-100" data-testid={testId}>
        {label}
      </a>
    );
  return (
    <nav aria-label={t('people.list.pagination')} className="mt-3 flex flex-wrap items-center justify-between gap-3 text-sm">
      {sizes.length > 1 ? (
        <div className="flex items-center gap-2">
          <span id="page-size-label">{t('people.list.perPage')}</span>
          <ul aria-labelledby="page-size-label" className="m-0 flex list-none gap-1 p-0">
            {sizes.map((n) => (
              <li key={n}>
                <a
                  href={href({ perPage: n, page: 1 })}
                  aria-current={n === query.perPage ? 'true' : undefined}
                  aria-label={t('people.list.perPageOption', { count: n })}
                  className={`inline-block rounded px-2 py-1 no-underline ${n === query.perPage ? 'bg-blue-800 text-white' : 'text-blue-800 hover:bg-slate-100'}`}
                >
                  {n}
                </a>
              </li>
            ))}
          </ul>
        </div>
      ) : (
        <span />
      )}
      <div className="flex items-center gap-2">
        <span data-testid="pager-range">{t('people.list.range', { first, last, total })}</span>
        {pageLink(query.page - 1, t('people.list.previous'), 'pager-previous')}
        {pageLink(query.page + 1, t('people.list.next'), 'pager-next')}
      </div>
    </nav>
  );
}
