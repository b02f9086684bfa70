// The HTTP API as the page uses it: the session cookie signs requests in, and every request
// that changes something carries the session's CSRF token.

export interface Problem {
  status: number;
  title: string;
  detail: string;
}

export class ApiError extends Error {
  constructor(public problem: Problem) {
    super(problem.detail || problem.title);
  }
}

export interface Session {
  tenant: string;
  identity: string;
  scopes: string[];
  personal: boolean;
  csrf: string | null;
  csrf_header: string;
}

let csrf: { header: string; token: string } | null = null;

export function setSession(s: Session): void {
  csrf = s.csrf ? { header: s.csrf_header, token: s.csrf } : null;
}

export function headers(method: string, extra: Record<string, string> = {}): Record<string, string> {
  const out: Record<string, string> = { Accept: "application/json", ...extra };
  if (method !== "GET" && csrf) out[csrf.header] = csrf.token;
  return out;
}

export async function problemOf(response: Response): Promise<ApiError> {
  let body: Partial<Problem> = {};
  try {
    body = await response.json();
  } catch {
    // not JSON: the status says enough
  }
  return new ApiError({
    status: response.status,
    title: body.title ?? response.statusText,
    detail: body.detail ?? `${response.status} ${response.statusText}`,
  });
}

export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const init: RequestInit = { method, headers: headers(method), credentials: "same-origin" };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers = headers(method, { "Content-Type": "application/json" });
  }
  const response = await fetch(path, init);
  if (!response.ok) throw await problemOf(response);
  return (await response.json()) as T;
}

export const get = <T>(path: string): Promise<T> => api<T>("GET", path);

/** POST a file with upload progress (fetch has none): resolves with the JSON answer. */
export function upload<T>(path: string, file: File, onProgress: (fraction: number) => void): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", path);
    for (const [k, v] of Object.entries(headers("POST", { "Content-Type": "application/octet-stream" }))) {
      xhr.setRequestHeader(k, v);
    }
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = null;
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        resolve(body as T);
      } else {
        const p = (body ?? {}) as Partial<Problem>;
        reject(new ApiError({ status: xhr.status, title: p.title ?? "Error", detail: p.detail ?? `${xhr.status}` }));
      }
    };
    xhr.onerror = () => reject(new ApiError({ status: 0, title: "Network error", detail: "the upload failed" }));
    xhr.send(file);
  });
}

export function query(params: Record<string, string | number | undefined | null>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v !== undefined && v !== null && v !== "") q.append(k, String(v));
  }
  const s = q.toString();
  return s ? `?${s}` : "";
}
