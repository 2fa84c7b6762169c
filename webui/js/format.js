// Small formatting helpers for the page. Pure functions.

// 4000787030016 -> "4.00 TB" (decimal units, as drive labels use).
export function formatBytes(bytes) {
  if (typeof bytes !== 'number' || !Number.isFinite(bytes) || bytes <= 0) return '–';
  const units = ['B', 'kB', 'MB', 'GB', 'TB', 'PB'];
  let value = bytes;
  let i = 0;
  while (value >= 1000 && i < units.length - 1) {
    value /= 1000;
    i += 1;
  }
  return `${value.toFixed(value >= 100 || i === 0 ? 0 : 2)} ${units[i]}`;
}

// What kind of drive: "HDD 7200 rpm", "SSD", "NVMe SSD", or "–".
export function driveKind(drive) {
  if (drive.transport === 'nvme') return 'NVMe SSD';
  if (drive.rotational === true) {
    return drive.rotation_rpm ? `HDD ${drive.rotation_rpm} rpm` : 'HDD';
  }
  if (drive.rotational === false || drive.rotation_rpm === 0) return 'SSD';
  return '–';
}

// Unix seconds -> "3 min ago", "2 h ago", "5 d ago"; "–" for 0/absent.
export function formatAgo(unixSeconds, nowMs = Date.now()) {
  if (!unixSeconds) return '–';
  const s = Math.max(0, Math.round(nowMs / 1000 - unixSeconds));
  if (s < 60) return 'just now';
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
  return `${Math.floor(s / 86400)} d ago`;
}

// Seconds -> "3 d 4 h", "5 h 2 min", "12 min", "40 s".
export function formatDuration(seconds) {
  const s = Math.max(0, Math.floor(seconds || 0));
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (d > 0) return `${d} d ${h} h`;
  if (h > 0) return `${h} h ${m} min`;
  if (m > 0) return `${m} min`;
  return `${s} s`;
}

// 38 -> "38 °C"; null/absurd-free: shows what the drive said, "–" when unknown.
export function formatTemp(c) {
  return typeof c === 'number' && Number.isFinite(c) ? `${Math.round(c)} °C` : '–';
}

// Power-on hours -> "3.2 y", "140 d", "20 h"; "–" when unknown.
export function formatPowerOn(hours) {
  if (typeof hours !== 'number' || !Number.isFinite(hours) || hours < 0) return '–';
  if (hours >= 24 * 365) return `${(hours / (24 * 365)).toFixed(1)} y`;
  if (hours >= 48) return `${Math.floor(hours / 24)} d`;
  return `${Math.floor(hours)} h`;
}

// 97.4 -> "97%"; "–" when unknown.
export function formatPercent(p) {
  return typeof p === 'number' && Number.isFinite(p) ? `${Math.round(p)}%` : '–';
}

// A rate for people: 0.5 -> "0.50", 182.3 -> "182", 1e12 -> "1.0e12".
export function formatNumber(v) {
  if (typeof v !== 'number' || !Number.isFinite(v)) return '–';
  const a = Math.abs(v);
  if (a >= 1e7) return v.toExponential(1);
  if (a >= 100) return v.toFixed(0);
  if (a >= 10) return v.toFixed(1);
  return v.toFixed(2);
}

// "1.23k", "950", "0.42"
export function formatValue(v) {
  const a = Math.abs(v);
  if (a >= 1e7) return v.toExponential(1);
  if (a >= 10000) return `${(v / 1000).toFixed(a >= 100000 ? 0 : 1)}k`;
  if (a >= 100) return v.toFixed(0);
  if (a >= 10) return v.toFixed(1);
  return v.toFixed(2);
}

// One date formatter of each kind for the whole page: toLocaleString and
// toLocaleDateString build a new one per call, a few milliseconds each on a
// slow phone, and the charts' axes and tooltips and the tables' rows call
// them hundreds of times.
const DATE_FORMATS = {};
export function dateFormat(kind, options) {
  if (!DATE_FORMATS[kind]) DATE_FORMATS[kind] = new Intl.DateTimeFormat(undefined, options);
  return DATE_FORMATS[kind];
}

// Unix seconds as the browser's local date and time (what toLocaleString gives).
export function localTime(unix) {
  return dateFormat('local', { year: 'numeric', month: 'numeric', day: 'numeric',
    hour: 'numeric', minute: '2-digit', second: '2-digit' }).format(new Date(unix * 1000));
}
