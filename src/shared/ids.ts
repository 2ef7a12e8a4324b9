// Object ids: UUIDv7, so "newest first" is "id descending" and cursors stay stable as rows arrive.
import { v7, validate } from 'uuid';

export const newId = (): string => v7();

export const isUuid = (value: string): boolean => validate(value);
