export default function SsoSetting() {
  return null;
}
