// People administration (spec 02 sections 2-9): users, deactivated users, departments, CSV
// import, invitations, SSO for all, app usage counts and the audit-log export. Request schemas are
// shared by the server and the islands; messages are i18n keys. Timestamps in responses are ISO
// 8601 strings (UTC) or null.
//
// Endpoints (under <base>/api, i.e. /accounts/api; "A|M" = admin or tenant manager on the tenant's
// own host, "A" = admin only). State-changing calls need X-Requested-With + same Origin (CSRF).
//
//  GET    /admin/users?search=&sort=&order=&page=&perPage=      A|M  -> UsersPage
//           sort: created_at (default) | name | email | last_active_at; order: desc (default) | asc;
//           name sorts by the reading where one is kept, else by the name (decision 0045);
//           perPage: 5 | 10 | 25 (default) | 100; page from 1. Active (not deactivated) members only.
//  POST   /admin/users  UserInput                               A|M  -> 201 {message:'success', user: AdminUser, invited: boolean}
//           errors 422 quota_finished {app} | 409 user_already_exists | 422 sso_users_limit_exceeded
//                  | 422 saml-name-id-taken (another member of the tenant has this SAML name id)
//                  | 422 'The given data was invalid.' {errors} | 404 not-found (department id of another tenant)
//  PATCH  /admin/users/{id}  UserUpdateInput                    A|M  -> {message:'success'|'sent-register-mail-to-new-email-id', user}
//           errors 422 cannot-make-last-admin-as-non-admin | 409 duplicate-email | 409 belongs-to-multiple-tenants
//                  | 422 sso_users_limit_exceeded | 422 quota_finished {app} | 422 saml-name-id-taken | 404 not-found
//  DELETE /admin/users/{id}                                     A|M  -> 202 {message:'deleting'} | 204 (no body)
//           errors 400 cannot-delete-last-admin | 404 not-found
//  POST   /admin/users/{id}/deactivate                          A|M  -> {message:'success'}
//           errors 422 cannot-deactivate-last-admin | 404
//  POST   /admin/users/{id}/reactivate                          A|M  -> {message:'success'}
//           errors 422 quota_finished {app} (an app the user holds has no free seat) | 422 sso_users_limit_exceeded | 404
//  GET    /admin/users/{id}/cards-count                         A|M  -> {data: number}   (reported by the card app)
//  GET    /admin/users/{id}/schedules-count                     A|M  -> {data: number}   (reported by the scheduler)
//           errors 404 | 502 app-usage-unavailable (the app did not answer; the portal never guesses)
//  POST   /admin/users/invite  InviteInput                      A|M  -> {message:'success', count}
//           {users:[ids]} re-sends to those ids; {users:'all'} to every active member who has not
//           registered yet. Mails go through the throttled mail queue. errors 409 already-registered (single id)
//  POST   /admin/users/enable-sso-for-all                       A|M  -> {message:'success'}
//  POST   /admin/users/disable-sso-for-all                      A|M  -> {message:'success'}
//           error 422 cannot-enable-sso-for-all-users (SSO not on for the tenant, or more active users than the SSO limit)
//  GET    /admin/deactivated-users?page=                        A|M  -> DeactivatedUsersPage (deactivated_at desc, 25 per page)
//  GET    /admin/apps/allowed                                   A|M  -> AllowedApp[]
//  GET    /admin/departments                                    A|M  -> Department[]
//  GET    /departments-with-users                               A|M  -> DepartmentWithUsers[]
//  POST   /admin/departments  {name}                            A|M  -> 201 Department
//  PATCH  /admin/departments/{id}  {name}                       A|M  -> Department
//           error 422 'The given data was invalid.' {errors:{name:[<name already exists>]}} | 404
//  DELETE /admin/departments/{id}                               A|M  -> {message:'success'}
//           error 422 cannot-delete-department-with-users | 404
//  GET    /admin/users/import                                   A|M  -> text/csv users-import-sample.csv (headers in the caller's language)
//  POST   /admin/users/import          multipart csvFile        A|M  -> {message:'success', count}
//  POST   /admin/users/import/update   multipart csvFile        A|M  -> {message:'success', count}
//           A file over IMPORT_INLINE_BYTES (1 MiB) is stored as it streams in and runs as a job:
//           202 ImportAccepted {message:'processing', jobId, ...ImportJobProgress} (decision 0030).
//           409 imports-in-progress: the tenant has 3 unfinished imports already.
//  GET    /admin/users/import/{jobId}                           A|M  -> ImportJobProgress (only the member who
//           started it, on its tenant; 404 otherwise). Once failed, `error` is the answer below.
//           errors (both) 413 file-too-large (50 MB) | 422 'The given data was invalid.' {errors:{csvFile:[CSV_TYPE_ERROR]}}
//                  (missing file / not csv or txt) | 422 incorrect-encoding | 422 unexpected_format
//                  {expected_format, given_format} | 422 no_data | 422 quota_finished {app}
//                  | 422 invalid-csv {rows: ImportRowError[]} (unparseable CSV or bad rows; nothing applied)
//  GET    /admin/users/import/update/logs                       A|M  -> ImportLog[] (newest first, 50)
//  GET    /admin/activity-logs/export-csv                       A    -> text/csv stream, UTF-8 BOM,
//           Content-Disposition filename*=<localised title><yyyyMMddHHmmss>.csv

import * as z from 'zod/mini';
import { normaliseReading, readingProblem } from './reading';
import type { AppKey } from '../sign-in/redirection';

import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from '../list-query';
export { DEFAULT_PAGE_SIZE, PAGE_SIZES };
export const DEACTIVATED_PAGE_SIZE = 25;
export const USER_SORTS = ['created_at', 'name', 'email', 'last_active_at'] as const;
export type UserSort = (typeof USER_SORTS)[number];

/** Apps a tenant admin grants from the users screen (the operator app is granted by staff). */
export const MANAGED_APPS = ['meishi', 'scheduler'] as const;
export type ManagedApp = (typeof MANAGED_APPS)[number];

/** CSV import limits (spec 02 section 9). */
export const IMPORT_MAX_BYTES = 50 * 1024 * 1024;
export const IMPORT_SAMPLE_FILENAME = 'users-import-sample.csv';
/** The validation text the client matches to show the wrong-file-type message (spec 02 section 8). */
export const CSV_TYPE_ERROR = 'The csv file must be a file of type: csv, txt.';

const intFromQuery = (fallback: number) =>
  z.pipe(
    z.optional(z.string()),
    z.transform((v) => (v === undefined || v === '' ? fallback : Number(v))),
  );

export const usersQuerySchema = z.object({
  search: z.optional(z.string().check(z.trim(), z.maxLength(255))),
  sort: z._default(z.optional(z.enum(USER_SORTS)), 'created_at'),
  order: z._default(z.optional(z.enum(['asc', 'desc'])), 'desc'),
  page: z.pipe(intFromQuery(1), z.number().check(z.int(), z.gte(1), z.lte(1_000_000))),
  perPage: z.pipe(intFromQuery(DEFAULT_PAGE_SIZE), z.number().check(z.refine((n) => (PAGE_SIZES as readonly number[]).includes(n)))),
});
export type UsersQuery = z.output<typeof usersQuerySchema>;

export const pageQuerySchema = z.object({
  page: z.pipe(intFromQuery(1), z.number().check(z.int(), z.gte(1), z.lte(1_000_000))),
});

const email = z.string({ error: 'validation.required' }).check(
  z.trim(),
  z.minLength(1, { error: 'validation.required', abort: true }),
  z.maxLength(254, { error: 'validation.emailInvalid', abort: true }),
  z.email({ error: 'validation.emailInvalid' }),
);
const name = z.string({ error: 'validation.required' }).check(
  z.trim(),
  z.minLength(1, { error: 'validation.required', abort: true }),
  z.maxLength(255, { error: 'people.validation.tooLong' }),
);
const id = z.number().check(z.int(), z.gte(1));
/** The reading (フリガナ), normalised to katakana; '' or null: none (decision 0045). */
const nameReading = z.optional(
  z.nullable(
    z.string().check(
      z.overwrite(normaliseReading),
      z.refine((v) => readingProblem(v) !== 'people.validation.readingTooLong', { error: 'people.validation.readingTooLong', abort: true }),
      z.refine((v) => readingProblem(v) === null, { error: 'people.validation.readingKana' }),
    ),
  ),
);

/** POST /admin/users (spec 02 section 7 field names). */
export const userInputSchema = z.object({
  name,
  name_reading: nameReading,
  email,
  department_id: z.optional(z.nullable(id)),
  is_admin: z._default(z.optional(z.boolean()), false),
  allowedApps: z.array(z.enum(MANAGED_APPS)).check(z.minLength(1, { error: 'people.validation.appRequired' }), z.maxLength(2)),
  additionalDepartmentIds: z._default(z.optional(z.array(id).check(z.maxLength(100))), []),
  saml_name_id: z.optional(z.nullable(z.string().check(z.trim(), z.maxLength(255, { error: 'people.validation.tooLong' })))),
  is_sso_enabled: z._default(z.optional(z.boolean()), false),
});
export type UserInput = z.output<typeof userInputSchema>;

/**
 * PATCH /admin/users/{id}: the same fields. allowedApps and is_admin may be left out (the dialog
 * hides them for a deactivated user); left out means unchanged.
 */
export const userUpdateSchema = z.object({
  name,
  /** Absent: unchanged; null or '': none. */
  name_reading: nameReading,
  email,
  department_id: z.optional(z.nullable(id)),
  is_admin: z.optional(z.boolean()),
  allowedApps: z.optional(z.array(z.enum(MANAGED_APPS)).check(z.minLength(1, { error: 'people.validation.appRequired' }), z.maxLength(2))),
  additionalDepartmentIds: z.optional(z.array(id).check(z.maxLength(100))),
  saml_name_id: z.optional(z.nullable(z.string().check(z.trim(), z.maxLength(255, { error: 'people.validation.tooLong' })))),
  is_sso_enabled: z.optional(z.boolean()),
});
export type UserUpdateInput = z.output<typeof userUpdateSchema>;

export const inviteSchema = z.object({
  users: z.union([z.literal('all'), z.array(id).check(z.minLength(1), z.maxLength(1000))]),
});

export const departmentSchema = z.object({
  name: z.string({ error: 'validation.required' }).check(
    z.trim(),
    z.minLength(1, { error: 'validation.required', abort: true }),
    z.maxLength(255, { error: 'people.validation.tooLong' }),
  ),
});

// ---- CSV import format ----------------------------------------------------------------------

/** Columns of the import file, in order. Either language's header row is accepted. */
export const IMPORT_COLUMNS = ['name', 'email', 'department', 'additional_departments', 'meishi', 'scheduler', 'is_admin'] as const;
/** The optional last column (decision 0045): files without it import as before. */
export const IMPORT_READING_COLUMN = 'name_reading';
export const IMPORT_READING_HEADER: Record<'ja' | 'en', string> = { ja: 'フリガナ', en: 'Name reading' };
export type ImportColumn = (typeof IMPORT_COLUMNS)[number] | typeof IMPORT_READING_COLUMN;
export const IMPORT_HEADERS: Record<'ja' | 'en', readonly string[]> = {
  ja: ['名前', 'メールアドレス', '部署', '追加部署', '名刺', 'スケジューラ', '管理者'],
  en: ['Name', 'Email', 'Department', 'Additional departments', 'Meishi', 'Scheduler', 'Admin'],
};
/** Additional departments are separated by this character inside their cell. */
export const IMPORT_LIST_SEPARATOR = '|';
/** App and admin cells: 1 = yes; 0 or empty = no. */
export const IMPORT_TRUE = '1';

// ---- Response types -------------------------------------------------------------------------

export interface DepartmentRef {
  id: number;
  name: string;
}

export interface AdminUser {
  id: number;
  name: string;
  /** The reading (フリガナ) this tenant keeps for the person, or null. */
  name_reading: string | null;
  email: string;
  /** Main department (null when none). */
  department: DepartmentRef | null;
  additionalDepartments: DepartmentRef[];
  /** Ids of `additionalDepartments` (this tenant's only): what the edit dialog sends back. */
  additional_departments_for_tenant: number[];
  is_admin: 0 | 1;
  role: 'admin' | 'normal';
  allowedApps: AppKey[];
  is_sso_enabled: boolean;
  saml_name_id: string | null;
  isTwofaEnabled: boolean;
  twofaMethod: 'app' | 'sms' | null;
  /** How many passkeys the person has (decision 0039). */
  passkeys: number;
  created_at: string;
  /** null: never active (the resend-invite button shows). */
  last_active_at: string | null;
  invited_at: string | null;
  /** Whether the user has set a password (registered). */
  isRegistered: boolean;
  deactivated_at: string | null;
  operationStatus: 'deleting' | null;
  language: 'ja' | 'en';
  emailVerifiedAt: string | null;
  /** An existing account was invited and has not accepted: only `email` is shown. */
  invitation_pending: boolean;
}

export interface UsersPage {
  data: AdminUser[];
  /** Rows matching the search (for the pager). */
  total: number;
  page: number;
  perPage: number;
  /** Toolbar figures for the whole tenant (active members), independent of the search. */
  /** admins: active admins (the last one cannot stop being one: cannot-make-last-admin-as-non-admin). */
  counts: { users: number; neverActive: number; notRegistered: number; admins: number };
  /** SSO options show (tenant SSO on, or IdP configured for a tenant manager, and limit > 0). */
  ssoOptionsVisible: boolean;
  /** 'none' | 'some' | 'all' active members with SSO on. */
  ssoStatus: 'none' | 'some' | 'all';
  ssoUsersLimit: number;
  /** The additional-departments column shows only when the tenant has the scheduler app. */
  schedulerAllowed: boolean;
}

export interface DeactivatedUsersPage {
  data: AdminUser[];
  total: number;
  page: number;
  perPage: number;
}

export interface AllowedApp {
  key: AppKey;
  name: string;
  /** Free seats; null = unlimited. */
  availableSeats: number | null;
  isSeatAvailable: boolean;
}

export interface Department {
  id: number;
  name: string;
  created_at: string;
  users_count: number;
  additional_users_count: number;
}

export interface DepartmentWithUsers {
  id: number;
  name: string;
  users: { id: number; name: string; email: string }[];
}

export interface ImportLog {
  id: number;
  filename: string;
  kind: 'add' | 'update';
  start_time: string;
  user: { name: string } | null;
  status: 'processing' | 'success' | 'failed';
  number_of_users_updated: number;
}

/**
 * GET /admin/users/import/{jobId}: a large import's progress (decision 0030). `total_rows` is the
 * file's line count after the header (exact unless cells hold line breaks); `error` is, once
 * failed, the same answer the import call gives for the file (`status` is its HTTP status).
 */
export interface ImportJobProgress {
  id: number;
  kind: 'add' | 'update';
  filename: string;
  status: 'uploading' | 'queued' | 'processing' | 'switching' | 'previewed' | 'success' | 'failed';
  processed_rows: number;
  total_rows: number;
  /** Users added or updated, once succeeded. */
  count: number | null;
  error: ({ status: number; message: string } & Record<string, unknown>) | null;
}

/** The 202 answer of the import calls for a file that runs as a job. */
export interface ImportAccepted extends ImportJobProgress {
  message: 'processing';
  jobId: number;
}

/** A field an update import changes, keyed like the row errors' columns (the screen shows the CSV header). */
export type ImportDiffField = 'name' | 'name_reading' | 'department' | 'additional_departments' | 'meishi' | 'scheduler' | 'is_admin';

/**
 * GET /admin/users/import/{jobId}/preview, and the answer of an import posted with `?preview=1`
 * once every row is checked (decision 0043): what running the job would do, row by row (the
 * first IMPORT_DIFF_ROWS), with counts. Rows with problems never reach a preview: such a file
 * fails as the import does, with every error by line.
 */
export interface ImportDiff {
  jobId: number;
  kind: 'add' | 'update';
  filename: string;
  counts: { rows: number; added: number; invited: number; changed: number; unchanged: number; deactivated: number; errors: number };
  added: { line: number; email: string; name: string; department: string | null; additional_departments: string[]; meishi: boolean; scheduler: boolean; is_admin: boolean; invited: boolean }[];
  changed: { line: number; email: string; name: string; changes: { field: ImportDiffField; before: string | boolean | string[] | null; after: string | boolean | string[] | null }[] }[];
  /** Whether there are more rows than listed. */
  truncated: boolean;
}

export const IMPORT_DIFF_ROWS = 500;

/** The job id in GET /admin/users/import/{jobId}. */
export const importJobParamSchema = z.object({
  jobId: z.pipe(z.string().check(z.regex(/^[1-9][0-9]{0,15}$/)), z.transform(Number)),
});

export interface ImportFormatError {
  message: 'unexpected_format';
  expected_format: string[];
  given_format: string[];
}

export interface ImportRowError {
  /** 1-based line number in the file (the header is line 1). */
  row: number;
  column: ImportColumn | null;
  /** i18n key under people.import.rowErrors. */
  error: string;
  /** The cell as the file had it, quoted in the message ("部署が見つかりません: 総務部"); issue 27. */
  value?: string;
}

/** Row errors in the order a person reads the file: by line, then by column (issue 27). */
export function inFileOrder(rows: ImportRowError[]): ImportRowError[] {
  // The optional reading column comes last in a file (decision 0045).
  const col = (c: ImportColumn | null) => (c === null ? -1 : c === IMPORT_READING_COLUMN ? IMPORT_COLUMNS.length : IMPORT_COLUMNS.indexOf(c));
  return [...rows].sort((a, b) => a.row - b.row || col(a.column) - col(b.column));
}
