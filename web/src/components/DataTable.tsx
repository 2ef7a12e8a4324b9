// The dashboard's one table: columns described once; on a phone each row stacks into a card of label: value lines.
import { Table, Text } from '@mantine/core';
import type { HTMLAttributes, ReactNode } from 'react';

export interface Column<T> {
  key: string;
  /** The header; also the label of the value when the row stacks on a phone (empty: no label, e.g. buttons). */
  label: string;
  render: (row: T) => ReactNode;
  /** Right-aligned on wide screens (amounts). */
  numeric?: boolean;
}

export function DataTable<T>({
  label,
  columns,
  rows,
  rowKey,
  rowProps,
  empty,
}: {
  /** The table's accessible name. */
  label: string;
  columns: Column<T>[];
  rows: T[] | undefined;
  rowKey: (row: T) => string;
  rowProps?: (row: T) => HTMLAttributes<HTMLTableRowElement> & Record<`data-${string}`, string>;
  /** Shown instead of the table when the rows have loaded and there are none. */
  empty?: ReactNode;
}) {
  if (rows && rows.length === 0 && empty) {
    return <Text c="dimmed">{empty}</Text>;
  }
  // Wide tables scroll inside their own box on a tablet; below the sm breakpoint styles.css stacks the rows instead.
  return (
    <div className="data-table-scroll">
      <Table striped highlightOnHover aria-label={label} className="data-table" verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            {columns.map((c) => (
              <Table.Th key={c.key} ta={c.numeric ? 'right' : undefined}>
                {c.label}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows?.map((row) => (
            <Table.Tr key={rowKey(row)} {...rowProps?.(row)}>
              {columns.map((c) => (
                <Table.Td key={c.key} data-label={c.label} ta={c.numeric ? 'right' : undefined}>
                  {c.render(row)}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </div>
  );
}
