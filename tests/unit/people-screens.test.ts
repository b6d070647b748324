// The people screens' own rules (spec 02 sections 2, 5, 8 and 9), as the islands apply them.
import { describe, expect, it } from 'vitest';
import { importErrorKey } from '../../src/islands/people/csv-import';
import { userFormErrors } from '../../src/islands/people/user-dialog';
import { getT } from '../../src/shared/i18n';
import { CSV_TYPE_ERROR } from '../../src/shared/people/schemas';
import {
  additionalWithoutMain,
  checkCsvFile,
  compareHeaders,
  DEFAULT_LIST_QUERY,
  listApiQuery,
  listQueryString,
  nextSort,
  pageCount,
  readListQuery,
  timeFromNow,
} from '../../src/shared/people/list-state';

const SORTS = ['created_at', 'name', 'email', 'last_active_at'];

describe('list state in the URL', () => {
  it('defaults: created_at descending, 25 per page, page 1, and an empty query string', () => {
    const q = readListQuery(new URLSearchParams(''), SORTS);
    expect(q).toEqual({ q: '', sort: 'created_at', dir: 'desc', page: 1, perPage: 25 });
    expect(listQueryString(q)).toBe('');
  });
  it('reads the API parameter names and drops what it does not know', () => {
    const q = readListQuery(new URLSearchParams('search=%20tan%20&sort=name&order=asc&page=3&perPage=100'), SORTS);
    expect(q).toEqual({ q: 'tan', sort: 'name', dir: 'asc', page: 3, perPage: 100 });
    expect(readListQuery(new URLSearchParams('sort=password&order=up&perPage=30&page=-2'), SORTS)).toEqual(DEFAULT_LIST_QUERY);
    expect(listQueryString(q)).toBe('?search=tan&sort=name&order=asc&perPage=100&page=3');
    expect(listApiQuery(q)).toBe('sort=name&order=asc&page=3&perPage=100&search=tan');
  });
  it('a header flips its own direction and starts dates descending, text ascending, on page 1', () => {
    const onPage2 = { ...DEFAULT_LIST_QUERY, page: 2 };
    expect(nextSort(onPage2, 'created_at', ['created_at'])).toMatchObject({ sort: 'created_at', dir: 'asc', page: 1 });
    expect(nextSort(onPage2, 'name', ['created_at'])).toMatchObject({ sort: 'name', dir: 'asc', page: 1 });
    expect(nextSort({ ...onPage2, sort: 'name' }, 'last_active_at', ['last_active_at'])).toMatchObject({ dir: 'desc' });
  });
  it('page count is at least 1', () => {
    expect(pageCount(0, 25)).toBe(1);
    expect(pageCount(26, 25)).toBe(2);
    expect(pageCount(100, 100)).toBe(1);
  });
});

describe('time from now', () => {
  const now = Date.UTC(2026, 3, 27, 12, 0, 0);
  it('uses the largest whole unit, in either language', () => {
    expect(timeFromNow(now - 3 * 3_600_000, now, 'en')).toBe('3 hours ago');
    expect(timeFromNow(now - 3 * 3_600_000, now, 'ja')).toBe('3 時間前');
    expect(timeFromNow(now - 86_400_000, now, 'en')).toBe('yesterday');
    expect(timeFromNow(now - 10_000, now, 'en')).toBe('10 seconds ago');
    expect(timeFromNow(now - 400 * 86_400_000, now, 'en')).toBe('last year');
  });
});

describe('CSV checks before the upload', () => {
  it('50 MB at most; .csv or .txt with a text type', () => {
    expect(checkCsvFile({ name: 'users.csv', size: 50 * 1024 * 1024, type: 'text/csv' })).toBeNull();
    expect(checkCsvFile({ name: 'users.csv', size: 50 * 1024 * 1024 + 1, type: 'text/csv' })).toBe('too-large');
    expect(checkCsvFile({ name: 'USERS.TXT', size: 10, type: 'text/plain' })).toBeNull();
    expect(checkCsvFile({ name: 'users.xlsx', size: 10, type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' })).toBe('wrong-type');
    expect(checkCsvFile({ name: 'users.csv', size: 10, type: 'image/png' })).toBe('wrong-type');
  });
  it('marks every header position that differs, also missing and extra ones', () => {
    expect(compareHeaders(['Name', 'Email', 'Admin'], ['Name', 'Mail'])).toEqual([
      { expected: 'Name', given: 'Name', mismatch: false },
      { expected: 'Email', given: 'Mail', mismatch: true },
      { expected: 'Admin', given: null, mismatch: true },
    ]);
    expect(compareHeaders(['Name'], ['Name', 'Extra']).map((r) => r.mismatch)).toEqual([false, true]);
  });
});

describe('import errors (spec 02 section 8)', () => {
  it('maps each answer to its message', () => {
    expect(importErrorKey(413, { message: 'file-too-large' }, 'add')).toBe('people.import.tooLarge');
    expect(importErrorKey(422, { message: 'incorrect-encoding' }, 'add')).toBe('people.import.incorrectEncoding');
    expect(importErrorKey(422, { message: 'quota_finished', app: 'meishi' }, 'add')).toBe('people.import.quotaFinished');
    expect(importErrorKey(422, { message: 'no_data' }, 'update')).toBe('people.import.noData');
    expect(importErrorKey(422, { message: 'The given data was invalid.', errors: { csvFile: [CSV_TYPE_ERROR] } }, 'add')).toBe('people.import.wrongType');
    expect(importErrorKey(422, { message: 'invalid-csv', rows: [] }, 'add')).toBe('people.import.invalidCsv');
    expect(importErrorKey(500, {}, 'update')).toBe('people.import.someError');
    const t = getT('en');
    expect(t('people.import.tooLarge')).toBe('The file is too large (50 MB at most)');
  });
});

describe('additional departments', () => {
  it('leaves out the main department and repeats', () => {
    expect(additionalWithoutMain([3, 5, 3, 7], 5)).toEqual([3, 7]);
    expect(additionalWithoutMain([3], null)).toEqual([3]);
  });
});

describe('add/edit user form (spec 02 section 5)', () => {
  const t = getT('en');
  const base = { name: 'Hanako', email: 'hanako@example.test', apps: ['meishi'], samlNameId: '' };
  it('name and email required, with separate messages for a missing and an invalid email', () => {
    expect(userFormErrors(t, base, true)).toEqual({});
    expect(userFormErrors(t, { ...base, name: '  ' }, true)).toEqual({ name: 'Enter a name' });
    expect(userFormErrors(t, { ...base, email: '' }, true)).toEqual({ email: 'Enter an email address' });
    expect(userFormErrors(t, { ...base, email: 'hanako@' }, true)).toEqual({ email: 'Enter a valid email address' });
  });
  it('at least one app, unless the app chooser is hidden', () => {
    expect(userFormErrors(t, { ...base, apps: [] }, true)).toEqual({ apps: 'Select at least one app' });
    expect(userFormErrors(t, { ...base, apps: [] }, false)).toEqual({});
  });
});
