"""Write-audit-publish: the versioned published warehouse, rollback and the CSV exports."""
