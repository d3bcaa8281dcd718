"""Date formats that differ from Django's for a language (FORMAT_MODULE_PATH): Django
reads ours first and takes the rest of its own."""
