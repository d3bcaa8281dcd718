"""Emails: letters, Notification rows, sending, delivery reports."""
