"""The floor of values, rules and rows: no transaction of its own, no view."""
