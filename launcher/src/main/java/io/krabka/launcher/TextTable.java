package io.krabka.launcher;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/** Rows of text printed in columns aligned by their widest cell, under a header. */
final class TextTable {
    private final List<List<String>> rows = new ArrayList<>();

    TextTable(String... headers) {
        rows.add(List.of(headers));
    }

    /** Adds a row with one cell per header. */
    TextTable add(String... cells) {
        if (cells.length != rows.getFirst().size()) {
            throw new IllegalArgumentException("a row needs " + rows.getFirst().size() + " cells, not " + cells.length);
        }
        rows.add(List.of(cells));
        return this;
    }

    /** Prints the header and the rows, two spaces between columns, no trailing blanks. */
    void print(PrintStream out) {
        int columns = rows.getFirst().size();
        int[] widths = new int[columns];
        for (List<String> row : rows) {
            for (int i = 0; i < columns; i++) {
                widths[i] = Math.max(widths[i], row.get(i).length());
            }
        }
        for (List<String> row : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < columns; i++) {
                String cell = row.get(i);
                line.append(cell).append(i < columns - 1 ? " ".repeat(widths[i] - cell.length() + 2) : "");
            }
            out.println(line.toString().stripTrailing());
        }
    }
}
