"""The table's trust rules, each one pure decision over typed records with a table-driven
test: who may come in (`admission`), when a bot takes a seat (`takeover_agreement`), how
reports of offences count (`report_counting`). The parts of `net.table` wire them."""
