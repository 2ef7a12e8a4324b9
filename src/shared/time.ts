// Timestamps as the API shows them: ISO 8601, milliseconds, explicit UTC offset (D3).
export function formatTimestamp(value: Date | string): string {
  return new Date(value).toISOString().replace('Z', '+00:00');
}

export function formatNullableTimestamp(value: Date | string | null): string | null {
  return value === null ? null : formatTimestamp(value);
}
