"""Write-audit-publish: the publish door (`delivery.deliver`), the way back (`rollback.roll_back`),
the versioned published warehouse, the venue's CSVs and page, under one publish lock."""
