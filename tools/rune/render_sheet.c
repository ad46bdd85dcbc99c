/* placeholder */
typedef int render_sheet_placeholder;
