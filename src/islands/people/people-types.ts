// The shapes the people islands receive as props: the API's own types (spec 02 section 3).
export type {
  AdminUser as PersonRow,
  AllowedApp as AllowedAppInfo,
  Department as DepartmentRow,
  DepartmentRef,
  ImportLog as ImportLogRow,
  UsersPage,
} from '../../shared/people/schemas';
