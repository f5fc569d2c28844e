/** A simple table's header row: the `columns`, then the `numeric` ones (aligned right). */
export function TableHead({
  columns,
  numeric = [],
}: {
  columns: readonly string[];
  numeric?: readonly string[];
}) {
  return (
    <thead>
      <tr>
        {columns.map((name) => (
          <th key={name} scope="col">
            {name}
          </th>
        ))}
        {numeric.map((name) => (
          <th key={name} scope="col" className="num">
            {name}
          </th>
        ))}
      </tr>
    </thead>
  );
}
