"""Emails as Notification rows: planned with unique keys (plan), sent once with retries
(send), delivery reports recorded (tracking). Rendering lives in games.emails."""
